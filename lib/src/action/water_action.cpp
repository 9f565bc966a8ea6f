// keel::WaterAction: the Bullet glue around the substep (lib/src/substep):
// read the body, run the substep, apply the velocity change, wake the body.
#include <keel/water_action.hpp>

#include "columns/column_substep.hpp"
#include "hull/refuse_overlaps.hpp"
#include "substep/substep.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <stdexcept>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

void validate(const HydrostaticSettings& s) {
  if (!(s.waterDensity_kgpm3 > 0) || !std::isfinite(s.waterDensity_kgpm3))
    throw std::invalid_argument("keel::WaterAction: water density must be positive and finite, got " +
                                std::to_string(s.waterDensity_kgpm3) + " kg/m^3");
  if (!(s.patchCellSize_m > 0) || !std::isfinite(s.patchCellSize_m))
    throw std::invalid_argument("keel::WaterAction: patch cell size must be positive and finite, got " +
                                std::to_string(s.patchCellSize_m) + " m");
  if (s.pressure != PressureModel::StaticHead && s.pressure != PressureModel::WavePressure)
    throw std::invalid_argument("keel::WaterAction: unknown pressure model " + std::to_string(int(s.pressure)));
}

std::shared_ptr<const WaterSurface> surfaceOf(HeightFunction height) {
  if (!height) throw std::invalid_argument("keel::WaterAction: the height function is empty");
  return std::make_shared<FunctionSurface>(std::move(height));
}

}  // namespace

WaterAction::WaterAction(btRigidBody* body, std::shared_ptr<const Hull> hull, HeightFunction height,
                         const HydrostaticSettings& settings)
    : WaterAction(body, std::move(hull), surfaceOf(std::move(height)), settings) {}

WaterAction::WaterAction(btRigidBody* body, std::shared_ptr<const Hull> hull,
                         std::shared_ptr<const WaterSurface> surface, const HydrostaticSettings& settings)
    : body_(body), hull_(std::move(hull)), surface_(std::move(surface)), settings_(settings) {
  if (!body_) throw std::invalid_argument("keel::WaterAction: body is null");
  if (!hull_) throw std::invalid_argument("keel::WaterAction: hull is null");
  if (!surface_) throw std::invalid_argument("keel::WaterAction: water surface is null");
  validate(settings_);
  state_ = std::make_unique<detail::BoatState>();
  // The per-vertex arrays wait for the first substep on triangles
  // (fitTriangles): a boat put on columns first never needs them.
  state_->configurePatch(*hull_, settings_);
  // Overlapping parts float on their union, which only columns give.
  if (hull_->partsOverlap()) setBuoyancyModel(BuoyancyModel::Columns);
}

WaterAction::~WaterAction() = default;

void WaterAction::setSettings(const HydrostaticSettings& settings) {
  validate(settings);
  if (settings.sampling != settings_.sampling || settings.patchCellSize_m != settings_.patchCellSize_m)
    state_->configurePatch(*hull_, settings);
  settings_ = settings;
}

void WaterAction::setHydrodynamics(const HydrodynamicSettings& settings) {
  settings.validate();
  hydro_ = settings;
}

void WaterAction::updateAction(btCollisionWorld*, btScalar timeStep_s) {
  drawnCutBuilt_ = false;
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    (void)detail::skipSubstep(*state_, StatusBadTimeStep);
    return;
  }
  time_s_ += double(timeStep_s);
  forceForNextSubstep(timeStep_s);
}

void WaterAction::prime(btScalar timeStep_s) {
  drawnCutBuilt_ = false;
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    (void)detail::skipSubstep(*state_, StatusBadTimeStep);
    return;
  }
  forceForNextSubstep(timeStep_s);
}

void WaterAction::forceForNextSubstep(btScalar timeStep_s) {
  if (computeForces(timeStep_s)) applyForces();
}

bool WaterAction::computeForces(btScalar timeStep_s) {
  if (model_ == BuoyancyModel::Columns) {
    const detail::BoatModel boat{*hull_, *surface_, settings_, hydro_, columns_.get()};
    return detail::runColumnSubstep(boat, *state_, detail::BodySnapshot::of(*body_), timeStep_s, time_s_);
  }
  state_->fitTriangles(*hull_);  // allocates at the first substep on triangles only
  const detail::BoatModel boat{*hull_, *surface_, settings_, hydro_};
  return detail::runSubstep(boat, *state_, detail::BodySnapshot::of(*body_), timeStep_s, time_s_);
}

void WaterAction::setBuoyancyModel(BuoyancyModel model) {
  if (model == BuoyancyModel::Triangles)
    detail::refuseOverlappingParts(*hull_, "keel::WaterAction::setBuoyancyModel(Triangles)");
  if (model == model_) return;
  if (model == BuoyancyModel::Columns && !columns_) setColumnHull(defaultColumnHull(hull_));
  // The last substep's water was sampled at the other model's points, and
  // the slamming history is the triangles' own: both start again.
  state_->havePreviousWater = false;
  state_->slammingWarm = false;
  drawnCutBuilt_ = false;
  model_ = model;
}

void WaterAction::setColumnHull(std::shared_ptr<const ColumnHull> columns) {
  if (!columns) throw std::invalid_argument("keel::WaterAction::setColumnHull: the column hull is null");
  const double hullVolume = double(hull_->volume_m3());
  if (!(std::abs(double(columns->hullVolume_m3()) - hullVolume) <= 1e-6 * hullVolume))
    throw std::invalid_argument("keel::WaterAction::setColumnHull: built from a hull of " +
                                std::to_string(columns->hullVolume_m3()) + " m^3, this boat's has " +
                                std::to_string(hullVolume) + " m^3");
  state_->allocateColumns(*columns);
  columns_ = std::move(columns);
}

std::span<const btScalar> WaterAction::columnImmersion() const {
  if (model_ != BuoyancyModel::Columns) return {};
  return std::span<const btScalar>(state_->columnFraction).first(columns_->columns().size());
}

void WaterAction::applyForces() {
  detail::BoatState& s = *state_;
  if (s.wake) body_->activate();
  // A sleeping body ignores velocity changes: none is applied, none pending.
  if (body_->isActive()) {
    body_->setLinearVelocity(body_->getLinearVelocity() + s.pendingLinear_mps);
    body_->setAngularVelocity(body_->getAngularVelocity() + s.pendingAngular_radps);
    if (!s.dampingCompensated) s.flags |= StatusDampingUncompensated;
  } else {
    s.pendingLinear_mps.setZero();
    s.pendingAngular_radps.setZero();
  }
  detail::finishStatus(s.status, s.flags, false);
}

const HydrostaticResult& WaterAction::hydrostatics() const { return state_->hydrostatics; }
const HydrodynamicForces& WaterAction::hydrodynamics() const { return state_->hydrodynamics; }
const ForceTorque& WaterAction::totalForce() const { return state_->total; }
const btVector3& WaterAction::pendingLinearVelocity_mps() const { return state_->pendingLinear_mps; }
const btVector3& WaterAction::pendingAngularVelocity_radps() const { return state_->pendingAngular_radps; }
const btVector3& WaterAction::centreOfMass() const { return state_->centre_m; }
btScalar WaterAction::draft_m() const { return -state_->lowestAbove_m; }
const WaterPatch& WaterAction::waterPatch() const { return state_->patch; }

Sampling WaterAction::lastSampling() const { return state_->patchSampled ? Sampling::Patch : Sampling::Direct; }
const WaterStatus& WaterAction::status() const { return state_->status; }
void WaterAction::clearStatus() { state_->status.clear(); }

void WaterAction::buildDrawnCut() const {
  if (drawnCutBuilt_) return;
  if (model_ == BuoyancyModel::Columns) {  // no cut: the heights kept are the columns'
    drawnPieces_.clear();
    drawnWaterline_.clear();
    drawnCutBuilt_ = true;
    return;
  }
  if (drawnPieces_.capacity() == 0) {  // first use: room for any cut, so no allocation after
    drawnPieces_.reserve(2 * hull_->triangles().size());
    drawnWaterline_.reserve(hull_->triangles().size());
  }
  detail::drawnCut(*hull_, *state_, drawnPieces_, drawnWaterline_);
  drawnCutBuilt_ = true;
}

std::span<const SubmergedPiece> WaterAction::submergedPieces() const {
  buildDrawnCut();
  return drawnPieces_;
}

std::span<const WaterlineSegment> WaterAction::waterline() const {
  buildDrawnCut();
  return drawnWaterline_;
}

}  // namespace keel::KEEL_ABI

// keel::WaterAction: the Bullet glue around the substep (lib/src/substep):
// read the body, run the substep, apply the velocity change, wake the body.
#include <keel/water_action.hpp>

#include "action/in_world.hpp"
#include "action/raised_mass.hpp"
#include "hull/refuse_overlaps.hpp"
#include "internals.hpp"
#include "substep/model.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <cmath>
#include <new>
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
  if (!(s.patchSubstepsPerSample >= 1 && s.patchSubstepsPerSample <= 64))
    throw std::invalid_argument("keel::WaterAction: patch substeps per sample must be from 1 to 64, got " +
                                std::to_string(s.patchSubstepsPerSample));
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
    : WaterAction(body, std::move(hull), std::move(surface), settings, nullptr) {}

WaterAction::WaterAction(btRigidBody* body, std::shared_ptr<const Hull> hull,
                         std::shared_ptr<const WaterSurface> surface, const HydrostaticSettings& settings,
                         void* stateStorage)
    : body_(body), hull_(std::move(hull)), surface_(std::move(surface)), settings_(settings) {
  if (!body_) throw std::invalid_argument("keel::WaterAction: body is null");
  if (!hull_) throw std::invalid_argument("keel::WaterAction: hull is null");
  if (!surface_) throw std::invalid_argument("keel::WaterAction: water surface is null");
  validate(settings_);
  state_ = stateStorage ? ::new (stateStorage) State() : new State();
  stateInStorage_ = stateStorage != nullptr;
  try {
    // Each model's arrays wait for its first substep: a boat put on columns
    // first never holds the triangles'.
    state_->configurePatch(*hull_, settings_);
    // Telemetry reads the body's pose until the first substep.
    state_->centre_m = body_->getCenterOfMassPosition();
    state_->basis = body_->getCenterOfMassTransform().getBasis();
    // Overlapping parts float on their union, which only columns give.
    if (hull_->partsOverlap()) useModel(BuoyancyModel::Columns);
  } catch (...) {
    Internals::releaseState(*this);
    throw;
  }
}

WaterAction::~WaterAction() {
  // The body outlives the action: it keeps its own mass.
  detail::holdRaisedMass(*body_, state_->raised, nullptr, false);
  Internals::releaseState(*this);
}

WaterAction* Internals::makeBoat(void* slot, void* stateStorage, btRigidBody* body, std::shared_ptr<const Hull> hull,
                                 std::shared_ptr<const WaterSurface> surface, const HydrostaticSettings& settings) {
  return ::new (slot) WaterAction(body, std::move(hull), std::move(surface), settings, stateStorage);
}

void Internals::releaseState(WaterAction& boat) noexcept {
  if (boat.stateInStorage_)
    boat.state_->~State();
  else
    delete boat.state_;
  boat.state_ = nullptr;
}

void WaterAction::setSettings(const HydrostaticSettings& settings) {
  validate(settings);
  if (settings.sampling != settings_.sampling || settings.patchCellSize_m != settings_.patchCellSize_m)
    state_->configurePatch(*hull_, settings);
  settings_ = settings;
}

void WaterAction::setSurface(std::shared_ptr<const WaterSurface> surface) {
  if (!surface) throw std::invalid_argument("keel::WaterAction::setSurface: water surface is null");
  // Nothing the boat carries depends on which surface it is: the patch's
  // history names its surface, and another starts afresh. The samples its
  // patch keeps in time are forgotten: the new surface may live where a
  // freed one did.
  state_->patch.forgetKeptSamples();
  surface_ = std::move(surface);
}

void WaterAction::setHydrodynamics(const HydrodynamicSettings& settings) {
  settings.validate();
  hydro_ = settings;
  // Off: the body gets its own mass back now (between steps).
  if (!hydro_.addedMass) detail::holdRaisedMass(*body_, state_->raised, nullptr, false);
}

void WaterAction::updateAction(btCollisionWorld* world, btScalar timeStep_s) {
  drawnCutBuilt_ = false;
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    (void)detail::skipSubstep(*state_, StatusBadTimeStep);
    return;
  }
  time_s_ += double(timeStep_s);
  // leftWorld's test and forceForNextSubstep's calls made here: two calls
  // fewer on a small hull's substep, whose every call shows.
  if (!detail::inWorld(*body_, world)) {
    (void)leftWorld(world);
    return;
  }
  if (computeForces(timeStep_s)) applyForces();
}

bool WaterAction::leftWorld(const btCollisionWorld* world) {
  if (detail::inWorld(*body_, world)) return false;
  drawnCutBuilt_ = false;
  (void)detail::skipSubstep(*state_, StatusNotInWorld);
  return true;
}

void WaterAction::prime(btScalar timeStep_s) {
  drawnCutBuilt_ = false;
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    (void)detail::skipSubstep(*state_, StatusBadTimeStep);
    return;
  }
  // No time passes: the compartments' water weighs, but none moves. And
  // between steps, Bullet's accumulated force holds no gravity yet.
  struct Hold {
    bool& timePasses;
    bool& betweenSteps;
    ~Hold() { timePasses = true, betweenSteps = false; }
  } hold{state_->flood.timePasses, betweenSteps_};
  hold.timePasses = false;
  hold.betweenSteps = true;
  forceForNextSubstep(timeStep_s);
}

void WaterAction::forceForNextSubstep(btScalar timeStep_s) {
  if (computeForces(timeStep_s)) applyForces();
}

bool WaterAction::computeForces(btScalar timeStep_s) {
  return detail::runSubstep(Internals::model(*this), *state_,
                            detail::BodySnapshot::of(*body_, state_->raised, !betweenSteps_), timeStep_s, time_s_);
}

void WaterAction::useModel(BuoyancyModel model) {
  if (model == model_) return;
  if (model == BuoyancyModel::Columns && !columns_) useColumns(defaultColumnHull(hull_));
  model_ = model;
  // What the model kept from its last substep is stale: the other model ran
  // since. A model not yet run is made at its first substep (ModelState),
  // so that boats put on it in the loop that makes their bodies hold
  // nothing between those bodies (docs/performance.md, "Many boats").
  if (const auto& state = state_->models.at(std::size_t(model))) state->restart(Internals::model(*this));
  drawnCutBuilt_ = false;
}

void WaterAction::useColumns(std::shared_ptr<const ColumnHull> columns) {
  columns_ = std::move(columns);
  // On columns now, its water was at the others (made at its first substep).
  const auto& state = state_->models.at(std::size_t(BuoyancyModel::Columns));
  if (model_ == BuoyancyModel::Columns && state) state->restart(Internals::model(*this));
}

std::span<const btScalar> WaterAction::columnImmersion() const {
  if (model_ != BuoyancyModel::Columns) return {};
  // Before the columns' first substep, made now and dry.
  detail::ModelState& state = state_->modelState(model_);
  state.fit(Internals::model(*this));
  const std::span<const btScalar> immersion = state.immersion();
  return immersion.first(std::min(immersion.size(), columns_->columns().size()));
}

void WaterAction::applyForces() {
  detail::BoatState& s = *state_;
  // Woken only when not awake already: activate() would set the state and
  // the deactivation time each holds (one call fewer a substep).
  if (s.wake && (body_->getActivationState() != ACTIVE_TAG || body_->getDeactivationTime() != 0)) body_->activate();
  // A sleeping body ignores velocity changes: none is applied, none pending.
  if (body_->isActive()) {
    body_->setLinearVelocity(body_->getLinearVelocity() + s.pendingLinear_mps);
    body_->setAngularVelocity(body_->getAngularVelocity() + s.pendingAngular_radps);
    if (!s.dampingCompensated) s.flags |= StatusDampingUncompensated;
  } else {
    s.pendingLinear_mps.setZero();
    s.pendingAngular_radps.setZero();
  }
  // The next substep's mass and inertia: raised by the water's, or the own.
  // (Not called for a body whose mass Keel never raised: nothing to hold.)
  if (hydro_.addedMass || s.raised.active)
    detail::holdRaisedMass(*body_, s.raised, hydro_.addedMass ? &s.raisedTo : nullptr, !betweenSteps_);
  detail::finishStatus(s.status, s.flags, false);
}

const HydrostaticResult& WaterAction::hydrostatics() const { return state_->hydrostatics; }
const HydrodynamicForces& WaterAction::hydrodynamics() const { return state_->hydrodynamics; }
const ForceTorque& WaterAction::totalForce() const { return state_->total; }
const AddedMass& WaterAction::addedMass() const { return state_->addedMass; }
btScalar WaterAction::ownMass_kg() const {
  btScalar inverseMass = 0;
  btVector3 inverseInertia;
  detail::ownMassOf(*body_, state_->raised, inverseMass, inverseInertia);
  return inverseMass > 0 ? btScalar(1) / inverseMass : btScalar(0);
}
btVector3 WaterAction::linearVelocity_mps() const { return body_->getLinearVelocity() - state_->pendingLinear_mps; }
btVector3 WaterAction::angularVelocity_radps() const {
  return body_->getAngularVelocity() - state_->pendingAngular_radps;
}
const btVector3& WaterAction::pendingLinearVelocity_mps() const { return state_->pendingLinear_mps; }
const btVector3& WaterAction::pendingAngularVelocity_radps() const { return state_->pendingAngular_radps; }
const btVector3& WaterAction::centreOfMass() const { return state_->centre_m; }
btScalar WaterAction::draft_m() const { return -state_->lowestAbove_m; }
const WaterPatch& WaterAction::waterPatch() const { return state_->patch; }

Sampling WaterAction::lastSampling() const { return state_->patchSampled ? Sampling::Patch : Sampling::Direct; }
const WaterStatus& WaterAction::status() const { return state_->status; }
void WaterAction::clearStatus() { state_->status.clear(); }

void WaterAction::setProfiling(bool on) {
  if (!on)
    state_->profile.reset();
  else if (!state_->profile)
    state_->profile = std::make_unique<SubstepProfile>();
}
bool WaterAction::profiling() const { return state_->profile != nullptr; }
SubstepProfile WaterAction::profile() const { return state_->profile ? *state_->profile : SubstepProfile{}; }
void WaterAction::clearProfile() {
  if (state_->profile) *state_->profile = SubstepProfile{};
}

void WaterAction::buildDrawnCut() const {
  if (drawnCutBuilt_) return;
  if (drawnPieces_.capacity() == 0) {  // first use: room for any cut, so no allocation after
    drawnPieces_.reserve(2 * hull_->triangles().size());
    drawnWaterline_.reserve(hull_->triangles().size());
  }
  detail::drawnCut(Internals::model(*this), *state_, drawnPieces_, drawnWaterline_);
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

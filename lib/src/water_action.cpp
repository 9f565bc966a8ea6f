#include <keel/water_action.hpp>

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btIDebugDraw.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace keel {
namespace {

bool isFinite(const btVector3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

bool isFinite(const btTransform& t) {
  const btMatrix3x3& b = t.getBasis();
  return isFinite(t.getOrigin()) && isFinite(b[0]) && isFinite(b[1]) && isFinite(b[2]);
}

void validate(const HydrostaticSettings& s) {
  if (!(s.waterDensity_kgpm3 > 0) || !std::isfinite(s.waterDensity_kgpm3))
    throw std::invalid_argument("keel::WaterAction: water density must be positive and finite, got " +
                                std::to_string(s.waterDensity_kgpm3) + " kg/m^3");
  if (!(s.patchCellSize_m > 0) || !std::isfinite(s.patchCellSize_m))
    throw std::invalid_argument("keel::WaterAction: patch cell size must be positive and finite, got " +
                                std::to_string(s.patchCellSize_m) + " m");
}

std::shared_ptr<const WaterSurface> surfaceOf(HeightFunction height) {
  if (!height) throw std::invalid_argument("keel::WaterAction: the height function is empty");
  return std::make_shared<FunctionSurface>(std::move(height));
}

/// Bullet's damping factor for one substep, as btRigidBody::applyDamping
/// computes it: velocity *= (1 - damping)^dt.
btScalar dampingFactor(btScalar damping, btScalar dt_s) { return btPow(btScalar(1) - damping, dt_s); }

}  // namespace

std::string WaterStatus::describe() const {
  struct Name {
    std::uint32_t bit;
    const char* text;
  };
  static const Name names[] = {
      {StatusNonFiniteHeight, "non-finite water height (replaced)"},
      {StatusNoFiniteHeight, "no finite water height: no water force"},
      {StatusBadTimeStep, "time step <= 0 or not finite: substep skipped"},
      {StatusStaticBody, "static, kinematic or zero-mass body: nothing to float"},
      {StatusNoGravity, "gravity zero or not finite: no buoyancy"},
      {StatusNonFiniteBody, "body transform not finite: substep skipped"},
      {StatusNonFiniteForce, "non-finite force: not applied"},
      {StatusDry, "hull wholly above the water"},
      {StatusSubmerged, "hull wholly under the water"},
      {StatusSurfaceThrew, "the water surface threw: no water force"},
      {StatusDampingUncompensated, "body damping ~1: water force not damping-compensated"},
      {StatusNonFiniteVelocity, "non-finite water velocity (replaced by zero)"},
      {StatusDragClamped, "drag clamped so it cannot reverse the motion"},
  };
  std::ostringstream s;
  for (const Name& n : names)
    if (flags & n.bit) s << (s.tellp() > 0 ? "; " : "") << n.text;
  if (nonFiniteHeights > 0) s << (s.tellp() > 0 ? "; " : "") << nonFiniteHeights << " non-finite heights so far";
  if (nonFiniteVelocities > 0)
    s << (s.tellp() > 0 ? "; " : "") << nonFiniteVelocities << " non-finite water velocities so far";
  return s.tellp() > 0 ? s.str() : std::string("ok");
}

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
  allocate();
}

WaterAction::~WaterAction() = default;

void WaterAction::allocate() {
  const std::size_t n = hull_->vertices().size();
  r_.assign(n, btVector3(0, 0, 0));
  waterHeight_m_.assign(n, 0);
  previousWaterHeight_m_.assign(n, 0);
  h_m_.assign(n, 0);
  u_m_.assign(n, 0);
  v_m_.assign(n, 0);
  cut_.reserve(hull_->triangles().size());
  const std::size_t triangles = hull_->triangles().size(), pieces = 2 * triangles;
  flows_.assign(pieces, PieceFlow{});
  pieceWaterVelocity_mps_.assign(pieces, btVector3(0, 0, 0));
  queryU_m_.assign(n, 0);
  queryV_m_.assign(n, 0);
  queryW_m_.assign(n, 0);
  queried_.assign(n, 0);
  queried_.clear();  // capacity n kept: no allocation per substep
  vertexStamp_.assign(n, 0);
  queryStamp_ = 0;
  vertexWaterVelocity_.assign(n, WaterVelocity{});
  vertexWaterVelocity_mps_.assign(n, btVector3(0, 0, 0));
  slammingScratch_m3ps_.assign(triangles, 0);
  slamming_.reset(triangles);
  if (settings_.sampling == Sampling::Patch) patch_.configure(settings_.patchCellSize_m, hull_->radius_m());
}

void WaterAction::setSettings(const HydrostaticSettings& settings) {
  validate(settings);
  const bool patchChanged = settings.sampling == Sampling::Patch &&
                            (settings_.sampling != Sampling::Patch ||
                             settings.patchCellSize_m != settings_.patchCellSize_m);
  if (patchChanged) patch_.configure(settings.patchCellSize_m, hull_->radius_m());
  settings_ = settings;
}

void WaterAction::setHydrodynamics(const HydrodynamicSettings& settings) {
  settings.validate();
  hydro_ = settings;
}

bool WaterAction::anyHydrodynamics() const {
  return hydro_.viscous || hydro_.pressureDrag || hydro_.slamming || hydro_.airResistance || hydro_.damping;
}

namespace {

/// A water-frame velocity in world axes, or zero (reported) when not finite.
btVector3 finiteWorldVelocity(const WaterFrame& frame, const WaterVelocity& u, std::uint32_t& flags,
                              std::uint64_t& nonFinite) {
  if (std::isfinite(u.east_mps) && std::isfinite(u.north_mps) && std::isfinite(u.up_mps)) return frame.toWorld(u);
  ++nonFinite;
  flags |= StatusNonFiniteVelocity;
  return btVector3(0, 0, 0);
}

}  // namespace

std::uint32_t WaterAction::sampleVertexWaterVelocities(btScalar t_s) {
  // Water velocity at the hull vertices the pieces lie on, one batch query,
  // interpolated to each piece's centroid along the hull's edges as the cut
  // interpolated the heights: one query per wet vertex, not per piece, and
  // none for the dry part of the hull.
  std::uint32_t flags = StatusOk;
  if (++queryStamp_ == 0) {  // wrapped after 2^32 substeps: forget every stamp
    std::fill(vertexStamp_.begin(), vertexStamp_.end(), 0u);
    queryStamp_ = 1;
  }
  queried_.clear();
  // A piece's vertices lie on its own hull triangle's edges: that
  // triangle's three vertices are all the interpolation needs. A cut
  // triangle's two pieces come one after the other.
  std::uint32_t previousTriangle = UINT32_MAX;
  for (const SubmergedPiece& p : cut_.pieces) {
    if (p.triangle == previousTriangle) continue;
    previousTriangle = p.triangle;
    for (std::uint32_t v : hull_->triangles()[p.triangle])
      if (vertexStamp_[v] != queryStamp_) {
        vertexStamp_[v] = queryStamp_;
        queried_.push_back(v);
      }
  }
  const double cu = double(centre_.dot(frame_.east)), cv = double(centre_.dot(frame_.north));
  const btScalar cw = centre_.dot(frame_.up);
  const std::size_t count = queried_.size();
  for (std::size_t k = 0; k < count; ++k) {
    const btVector3& r = r_[queried_[k]];
    queryU_m_[k] = btScalar(cu + double(r.dot(frame_.east)));
    queryV_m_[k] = btScalar(cv + double(r.dot(frame_.north)));
    queryW_m_[k] = cw + r.dot(frame_.up);
  }
  try {
    surface_->velocities(queryU_m_.data(), queryV_m_.data(), queryW_m_.data(), count, t_s, vertexWaterVelocity_.data());
  } catch (...) {
    flags |= StatusSurfaceThrew;
    std::fill_n(vertexWaterVelocity_.begin(), count, WaterVelocity{});
  }
  for (std::size_t k = 0; k < count; ++k)
    vertexWaterVelocity_mps_[queried_[k]] =
        finiteWorldVelocity(frame_, vertexWaterVelocity_[k], flags, status_.nonFiniteVelocities);
  return flags;
}

btVector3 WaterAction::sampleBoatWaterVelocity(btScalar t_s, std::uint32_t& flags) {
  // One point: under the centre of mass, on the mean water height of the hull's vertices.
  double meanHeight = 0;
  for (btScalar h : waterHeight_m_) meanHeight += double(h);
  const btScalar u = centre_.dot(frame_.east), v = centre_.dot(frame_.north);
  const btScalar w = btScalar(meanHeight / double(std::max<std::size_t>(1, waterHeight_m_.size())));
  WaterVelocity water;
  try {
    water = surface_->velocity(u, v, w, t_s);
  } catch (...) {
    flags |= StatusSurfaceThrew;
  }
  return finiteWorldVelocity(frame_, water, flags, status_.nonFiniteVelocities);
}

std::uint32_t WaterAction::computeHydrodynamics(btScalar dt_s, btScalar t_s) {
  std::uint32_t flags = StatusOk;
  const btVector3 v = body_->getLinearVelocity(), w = body_->getAngularVelocity();
  // Only skin friction, pressure drag and slamming need the flow piece by
  // piece; air and damping need just the water's velocity under the boat.
  const bool perPiece = hydro_.viscous || hydro_.pressureDrag || hydro_.slamming;
  const std::size_t n = perPiece ? cut_.pieces.size() : 0;
  btVector3 meanWater(0, 0, 0);
  if (perPiece) {
    switch (hydro_.waterVelocity) {
      case WaterVelocitySampling::PerVertex:
        flags |= sampleVertexWaterVelocities(t_s);
        for (std::size_t i = 0; i < n; ++i)
          pieceWaterVelocity_mps_[i] = centroidValue(cut_.pieces[i], vertexWaterVelocity_mps_);
        break;
      case WaterVelocitySampling::PerBoat: {
        const btVector3 u = sampleBoatWaterVelocity(t_s, flags);
        std::fill_n(pieceWaterVelocity_mps_.begin(), n, u);
        break;
      }
      case WaterVelocitySampling::StillWater:
        std::fill_n(pieceWaterVelocity_mps_.begin(), n, btVector3(0, 0, 0));
        break;
    }
    pieceFlows(cut_.pieces, v, w, pieceWaterVelocity_mps_, flows_);
    btScalar wetArea = 0;
    for (std::size_t i = 0; i < n; ++i) {
      meanWater += pieceWaterVelocity_mps_[i] * flows_[i].area_m2;
      wetArea += flows_[i].area_m2;
    }
    if (wetArea > 0) meanWater /= wetArea;
  } else if (hydro_.waterVelocity != WaterVelocitySampling::StillWater && !cut_.pieces.empty()) {
    meanWater = sampleBoatWaterVelocity(t_s, flags);
  }
  const std::span<const PieceFlow> flows(flows_.data(), n);
  // The boat's velocity relative to the (area-weighted mean) water under it.
  const btVector3 relative = v - meanWater;
  const btScalar mass = btScalar(1) / body_->getInvMass();
  if (hydro_.viscous && n > 0) {
    const btScalar speed = relative.length();
    const btScalar length = speed > 0 ? wettedLength_m(cut_.pieces, cut_.waterline, relative / speed) : btScalar(0);
    const btScalar cf = ittc1957FrictionCoefficient(speed * length / hydro_.kinematicViscosity_m2ps);
    hydroForces_.viscous = viscousForce(flows, settings_.waterDensity_kgpm3, cf);
  }
  if (hydro_.pressureDrag) hydroForces_.pressureDrag = pressureDragForce(flows, hydro_);
  if (hydro_.slamming)
    hydroForces_.slamming = slammingForce(cut_.pieces, flows, hull_->triangleAreas_m2(), hull_->area_m2(), mass, dt_s, hydro_,
                                          slammingScratch_m3ps_, slamming_);
  if (hydro_.airResistance)
    hydroForces_.air = airForce(r_, hull_->triangles(), cut_.emerged, v, w, hydro_);
  if (hydro_.damping && hull_->volume_m3() > 0) {
    const btScalar fraction = std::clamp(result_.submergedVolume_m3 / hull_->volume_m3(), btScalar(0), btScalar(1));
    hydroForces_.damping.force_N = relative * (-hydro_.linearDamping_Nspm * fraction);
    hydroForces_.damping.torque_Nm = w * (-hydro_.angularDamping_Nmsprad * fraction);
  }
  clampToVelocity(hydroForces_, relative, w, body_->getInvMass(), body_->getInvInertiaTensorWorld(), dt_s);
  if (hydroForces_.clampScale < 1 || hydroForces_.angularClampScale < 1) flags |= StatusDragClamped;
  return flags;
}

void WaterAction::clearResults() {
  result_ = HydrostaticResult{};
  hydroForces_ = HydrodynamicForces{};
  total_ = ForceTorque{};
}

void WaterAction::finishStatus(std::uint32_t flags, bool skipped) {
  status_.flags = flags;
  status_.everFlags |= flags;
  ++status_.substeps;
  if (skipped) ++status_.skippedSubsteps;
}

WaterAction::Sample WaterAction::computeHydrostatics(const btVector3& gravity_mps2, btScalar t_s) {
  const btTransform& com = body_->getCenterOfMassTransform();
  centre_ = com.getOrigin();
  rotateVertices(com.getBasis(), hull_->vertices(), r_);
  std::size_t bad = 0, asked = 0;
  // The surface is user code running inside Bullet's step: an exception
  // escaping here would leave Bullet mid-step, so it is caught and reported.
  try {
    if (settings_.sampling == Sampling::Patch) {
      bad = patch_.sample(*surface_, double(centre_.dot(frame_.east)), double(centre_.dot(frame_.north)), t_s);
      asked = patch_.samples_m().size();
      sampleFromPatch(patch_, frame_, centre_, r_, waterHeight_m_);
    } else {
      bad = sampleDirect(*surface_, frame_, centre_, r_, t_s, u_m_, v_m_, waterHeight_m_);
      asked = r_.size();
    }
  } catch (...) {
    return Sample::Threw;
  }
  status_.nonFiniteHeights += bad;
  if (bad == asked) return Sample::NoFiniteHeight;  // nothing finite to stand in for the bad samples
  vertexHeights(r_, centre_.dot(frame_.up), frame_.up, waterHeight_m_, h_m_);
  cutHull(r_, h_m_, *hull_, cut_);
  result_ = integratePressure(cut_.pieces, settings_.waterDensity_kgpm3, gravity_mps2.length(), frame_.up);
  return bad > 0 ? Sample::SomeNonFinite : Sample::Ok;
}

bool WaterAction::applyForNextSubstep(const btVector3& force_N, const btVector3& torque_Nm, btScalar dt_s) {
  // Bullet multiplies the velocities by (1 - damping)^dt at the start of the
  // next substep and only then adds the accumulated forces' impulse, so a
  // force's velocity change escapes that damping. Dividing by the factor now
  // makes damping(v + dv / s) = damping(v) + dv exactly (design.md §2).
  const btScalar linearFactor = dampingFactor(body_->getLinearDamping(), dt_s);
  const btScalar angularFactor = dampingFactor(body_->getAngularDamping(), dt_s);
  // Damping ~1 wipes the velocity each substep: dividing would blow up a
  // velocity that Bullet then zeroes, so apply it uncompensated.
  const btScalar minFactor = btScalar(1e-3);
  const bool compensate = linearFactor > minFactor && angularFactor > minFactor;
  // Same expressions as btSequentialImpulseConstraintSolver uses for external
  // forces: F / m dt along the linear factor, tau I^-1 dt (I^-1 symmetric).
  const btVector3 dv = force_N * body_->getLinearFactor() * (body_->getInvMass() * dt_s);
  const btVector3 dw = (torque_Nm * body_->getAngularFactor()) * body_->getInvInertiaTensorWorld() * dt_s;
  pendingLinear_mps_ = compensate ? dv / linearFactor : dv;
  pendingAngular_radps_ = compensate ? dw / angularFactor : dw;
  body_->setLinearVelocity(body_->getLinearVelocity() + pendingLinear_mps_);
  body_->setAngularVelocity(body_->getAngularVelocity() + pendingAngular_radps_);
  return compensate;
}

void WaterAction::updateAction(btCollisionWorld*, btScalar timeStep_s) {
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    finishStatus(StatusBadTimeStep, true);
    return;
  }
  time_s_ += double(timeStep_s);
  forceForNextSubstep(timeStep_s);
}

void WaterAction::prime(btScalar timeStep_s) {
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    finishStatus(StatusBadTimeStep, true);
    return;
  }
  forceForNextSubstep(timeStep_s);
}

void WaterAction::forceForNextSubstep(btScalar timeStep_s) {
  if (computeForces(timeStep_s)) applyForces(timeStep_s);
}

bool WaterAction::computeForces(btScalar timeStep_s) {
  pendingLinear_mps_.setZero();
  pendingAngular_radps_.setZero();
  if (body_->isStaticOrKinematicObject() || !(body_->getInvMass() > 0)) {
    finishStatus(StatusStaticBody, true);
    return false;
  }
  const btVector3 gravity = body_->getGravity();
  if (!WaterFrame::fromGravity(gravity, frame_)) {
    finishStatus(StatusNoGravity, true);
    return false;
  }
  if (!isFinite(body_->getCenterOfMassTransform())) {
    finishStatus(StatusNonFiniteBody, true);
    return false;
  }
  const Sample sample = computeHydrostatics(gravity, btScalar(time_s_));
  if (sample == Sample::Threw || sample == Sample::NoFiniteHeight) {
    clearResults();
    cut_.pieces.clear();
    cut_.waterline.clear();
    finishStatus(sample == Sample::Threw ? StatusSurfaceThrew : (StatusNonFiniteHeight | StatusNoFiniteHeight), true);
    return false;
  }
  std::uint32_t flags = sample == Sample::SomeNonFinite ? StatusNonFiniteHeight : StatusOk;
  if (cut_.pieces.empty()) flags |= StatusDry;
  if (cut_.waterline.empty() && !cut_.pieces.empty()) flags |= StatusSubmerged;
  hydroForces_ = HydrodynamicForces{};
  if (anyHydrodynamics() && (!cut_.pieces.empty() || hydro_.airResistance))
    flags |= computeHydrodynamics(timeStep_s, btScalar(time_s_));
  total_ = hydroForces_.total();
  total_.force_N += result_.force_N;
  total_.torque_Nm += result_.torque_Nm;
  if (!isFinite(total_.force_N) || !isFinite(total_.torque_Nm)) {
    clearResults();
    finishStatus(flags | StatusNonFiniteForce, true);
    return false;
  }
  // Sleeping bodies ignore velocity changes; wake the boat when the water
  // under it moved (or always, unless sleeping in still water is allowed:
  // only then is the water compared with the last substep's).
  wake_ = false;
  if (!cut_.pieces.empty()) {
    wake_ = !settings_.allowSleepInStillWater || !havePreviousWater_;
    for (std::size_t i = 0; i < waterHeight_m_.size() && !wake_; ++i)
      wake_ = waterHeight_m_[i] != previousWaterHeight_m_[i];
  }
  previousWaterHeight_m_.swap(waterHeight_m_);
  havePreviousWater_ = true;
  flags_ = flags;
  return true;
}

void WaterAction::applyForces(btScalar timeStep_s) {
  if (wake_) body_->activate();
  if (body_->isActive() && !applyForNextSubstep(total_.force_N, total_.torque_Nm, timeStep_s))
    flags_ |= StatusDampingUncompensated;
  finishStatus(flags_, false);
}



void WaterAction::debugDraw(btIDebugDraw* drawer) {
  if (!drawer) return;
  const btVector3 pieceColour(0.1f, 0.4f, 1.0f), waterlineColour(1.0f, 1.0f, 1.0f), forceColour(1.0f, 0.2f, 0.1f);
  for (const SubmergedPiece& p : cut_.pieces)
    for (int k = 0; k < 3; ++k) drawer->drawLine(centre_ + p.r[k], centre_ + p.r[(k + 1) % 3], pieceColour);
  for (const WaterlineSegment& s : cut_.waterline) drawer->drawLine(centre_ + s.a, centre_ + s.b, waterlineColour);
  if (debugForceScale_N <= 0) return;
  if (!cut_.pieces.empty()) {
    const btVector3 from = centre_ + result_.centreOfBuoyancy;
    drawer->drawLine(from, from + result_.force_N / debugForceScale_N, forceColour);
  }
  // One arrow per hydrodynamic term, from the centre of mass.
  const std::pair<const ForceTorque*, btVector3> terms[] = {
      {&hydroForces_.viscous, btVector3(0.2f, 1.0f, 0.2f)},
      {&hydroForces_.pressureDrag, btVector3(1.0f, 0.8f, 0.1f)},
      {&hydroForces_.slamming, btVector3(1.0f, 0.1f, 1.0f)},
      {&hydroForces_.air, btVector3(0.6f, 0.9f, 1.0f)},
      {&hydroForces_.damping, btVector3(0.6f, 0.6f, 0.6f)}};
  for (const auto& [term, colour] : terms)
    if (!term->force_N.isZero()) drawer->drawLine(centre_, centre_ + term->force_N / debugForceScale_N, colour);
}

}  // namespace keel

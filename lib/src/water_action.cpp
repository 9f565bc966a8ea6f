#include <keel/water_action.hpp>

#include "hull_kernel.hpp"

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
  // Only what outlives a substep is the boat's own; the rest is its
  // thread's (detail::threadBuffers).
  const detail::HullSoA& soa = hull_->soa();
  waterHeight_m_.assign(soa.vertexPadded, 0);
  previousWaterHeight_m_.assign(soa.vertexPadded, 0);
  h_m_.assign(soa.vertexPadded, 0);
  sweptRate_m3ps_.assign(soa.trianglePadded, 0);
  previousSweptRate_m3ps_.assign(soa.trianglePadded, 0);
  slammingWarm_ = false;
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

/// A water-frame velocity, or zero (reported) when not finite.
WaterVelocity finiteVelocity(const WaterVelocity& u, std::uint32_t& flags, std::uint64_t& nonFinite) {
  if (std::isfinite(u.east_mps) && std::isfinite(u.north_mps) && std::isfinite(u.up_mps)) return u;
  ++nonFinite;
  flags |= StatusNonFiniteVelocity;
  return WaterVelocity{};
}

/// B^T a: world axis or vector `a` in the body axes of rotation B.
btVector3 toBody(const btMatrix3x3& basis, const btVector3& a) { return a * basis; }

}  // namespace

btVector3 WaterAction::toWorld(const double (&body)[3]) const {
  return basis_ * btVector3(btScalar(body[0]), btScalar(body[1]), btScalar(body[2]));
}

std::uint32_t WaterAction::sampleVertexWaterVelocities(btScalar t_s) {
  // Water velocity at the hull vertices the pieces lie on, one batch query:
  // the wet vertices and the dry corners of the crossing triangles (a cut
  // piece interpolates along its own triangle's edges), none for the rest
  // of the dry hull.
  std::uint32_t flags = StatusOk;
  detail::BoatBuffers& b = *buffers_;
  const detail::HullSoA& soa = hull_->soa();
  const std::span<const btVector3> vertices = hull_->vertices();
  if (++b.stampNow == 0) {  // wrapped after 2^32 substeps: forget every stamp
    std::fill(b.stamp.begin(), b.stamp.end(), 0u);
    b.stampNow = 1;
  }
  b.queried.clear();
  for (std::uint32_t i = 0; i < vertices.size(); ++i)
    if (h_m_[i] < 0) {
      b.stamp[i] = b.stampNow;
      b.queried.push_back(i);
    }
  for (std::size_t k = 0; k < crossingCount_; ++k)
    for (int j = 0; j < 3; ++j)
      if (const std::size_t v = detail::HullSoA::corner(soa.corners[std::size_t(b.crossing[k])], j);
          b.stamp[v] != b.stampNow) {
        b.stamp[v] = b.stampNow;
        b.queried.push_back(std::uint32_t(v));
      }
  // Their coordinates as the heights' (worldCoordinates), in query order.
  detail::worldCoordinates(hull_->soa(), toBody(basis_, frame_.east), toBody(basis_, frame_.north),
                           toBody(basis_, frame_.up), double(centre_.dot(frame_.east)),
                           double(centre_.dot(frame_.north)), centre_.dot(frame_.up), b.u_m.data(), b.v_m.data(),
                           b.w_m.data());
  const std::size_t count = b.queried.size();
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t i = b.queried[k];
    b.queryU_m[k] = b.u_m[i], b.queryV_m[k] = b.v_m[i], b.queryW_m[k] = b.w_m[i];
  }
  try {
    surface_->velocities(b.queryU_m.data(), b.queryV_m.data(), b.queryW_m.data(), count, t_s, b.velocity.data());
  } catch (...) {
    flags |= StatusSurfaceThrew;
    std::fill_n(b.velocity.begin(), count, WaterVelocity{});
  }
  return flags | storeVertexWaterVelocities(count, b.queried.data());
}

std::uint32_t WaterAction::storeVertexWaterVelocities(std::size_t count, const std::uint32_t* vertex) {
  // The surface's answers (water frame, in query order) to body axes, per
  // vertex; a non-finite one becomes zero and is reported. Every vertex in
  // order goes straight to the per-vertex arrays; a subset goes through the
  // query arrays (done with) and is scattered.
  detail::BoatBuffers& b = *buffers_;
  const btVector3 east = toBody(basis_, frame_.east), north = toBody(basis_, frame_.north),
                  up = toBody(basis_, frame_.up);
  btScalar* u = vertex ? b.queryU_m.data() : b.waterU_mps.data();
  btScalar* v = vertex ? b.queryV_m.data() : b.waterV_mps.data();
  btScalar* w = vertex ? b.queryW_m.data() : b.waterW_mps.data();
  const std::size_t bad = detail::velocitiesToBody(b.velocity.data(), count, east, north, up, u, v, w);
  if (vertex)
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = vertex[k];
      b.waterU_mps[i] = u[k], b.waterV_mps[i] = v[k], b.waterW_mps[i] = w[k];
    }
  status_.nonFiniteVelocities += bad;
  return bad > 0 ? StatusNonFiniteVelocity : StatusOk;
}

bool WaterAction::wantVertexVelocities() const {
  return (hydro_.viscous || hydro_.pressureDrag || hydro_.slamming) &&
         hydro_.waterVelocity == WaterVelocitySampling::PerVertex && !surface_->velocityIsUniform();
}

btVector3 WaterAction::sampleBoatWaterVelocity(btScalar t_s, std::uint32_t& flags) {
  // One point: under the centre of mass, on the mean water height of the hull's vertices.
  // (A uniform velocity is the same anywhere: no mean to take.)
  const std::size_t n = surface_->velocityIsUniform() ? 0 : hull_->vertices().size();
  double meanHeight = n == 0 ? double(centre_.dot(frame_.up)) : 0;
  for (std::size_t i = 0; i < n; ++i) meanHeight += double(waterHeight_m_[i]);
  const btScalar u = centre_.dot(frame_.east), v = centre_.dot(frame_.north);
  const btScalar w = btScalar(meanHeight / double(std::max<std::size_t>(1, n)));  // [m]
  // One batch of one, into the buffer the per-vertex query uses: the
  // surface's answer is read from memory it wrote, and zero if it threw.
  WaterVelocity* answer = buffers_->velocity.data();
  answer[0] = WaterVelocity{};
  try {
    surface_->velocities(&u, &v, &w, 1, t_s, answer);
  } catch (...) {
    flags |= StatusSurfaceThrew;
    answer[0] = WaterVelocity{};
  }
  return frame_.toWorld(finiteVelocity(answer[0], flags, status_.nonFiniteVelocities));
}

namespace {

/// Length of the wetted hull along `direction` (body axes) [m]: the extent
/// of the waterline points, or of every vertex when there is no waterline
/// (wettedLength_m's rule; the hull is then wholly under the water).
btScalar wettedLengthBody(const detail::PieceBuffer& pieces, const detail::HullSoA& hull, const btVector3& direction) {
  const btScalar along[3] = {direction.x(), direction.y(), direction.z()};
  detail::Extent e{0, 0};
  if (pieces.crossing == 0) {
    e = detail::extentAlong(hull.x.data(), hull.y.data(), hull.z.data(), hull.vertexCount, along);
  } else {
    const detail::Extent p =
        detail::extentAlong(pieces.px.data(), pieces.py.data(), pieces.pz.data(), pieces.crossing, along);
    const detail::Extent q =
        detail::extentAlong(pieces.qx.data(), pieces.qy.data(), pieces.qz.data(), pieces.crossing, along);
    e = {std::min(p.lo, q.lo), std::max(p.hi, q.hi)};
  }
  return e.hi > e.lo ? e.hi - e.lo : btScalar(0);
}

}  // namespace

std::uint32_t WaterAction::computeHydrodynamics(btScalar dt_s, btScalar t_s) {
  std::uint32_t flags = StatusOk;
  detail::BoatBuffers& b = *buffers_;
  const detail::HullSoA& soa = hull_->soa();
  const btVector3 v = body_->getLinearVelocity(), w = body_->getAngularVelocity();
  const btVector3 vBody = toBody(basis_, v), wBody = toBody(basis_, w);
  const btScalar mass = btScalar(1) / body_->getInvMass();
  bool slam = false;
  detail::SlammingParameters slamming;
  // Only skin friction, pressure drag and slamming need the flow piece by
  // piece; air and damping need just the water's velocity under the boat.
  const bool perPiece = anyWet_ && (hydro_.viscous || hydro_.pressureDrag || hydro_.slamming);
  btVector3 meanWater(0, 0, 0);
  detail::FlowSums flow;
  const detail::PieceStream pieces = b.pieces.stream();
  const detail::PieceFlowOut pieceFlow = b.pieces.flowOut();
  // The whole triangles' slamming is summed in flowSums: only their swept
  // rates are kept. A cut piece's slamming needs its whole triangle's rate,
  // the sum of its pieces': below.
  detail::FlowStream streams[2] = {
      {b.triangles(soa), detail::PieceFlowOut{nullptr, nullptr, nullptr, nullptr, sweptRate_m3ps_.data()}, nullptr},
      {pieces, pieceFlow, nullptr}};
  if (perPiece) {
    // A surface whose velocity is the same everywhere is asked once.
    // Per vertex (sampled with the heights, computeHydrostatics): each whole
    // triangle takes the mean of its corners', each cut piece has the mean
    // of its corners' from the cut. Otherwise the flow kernels take one
    // uniform velocity.
    const bool perVertex = perVertexVelocities_;
    btVector3 uniform(0, 0, 0);
    if (perVertex)
      detail::triangleWaterVelocity(soa, b, b.waterU.data(), b.waterV.data(), b.waterW.data());
    else if (hydro_.waterVelocity != WaterVelocitySampling::StillWater)
      uniform = toBody(basis_, sampleBoatWaterVelocity(t_s, flags));
    detail::FlowParameters p;
    for (int k = 0; k < 3; ++k)
      p.linearVelocity[k] = vBody[k], p.angularVelocity[k] = wBody[k], p.water[k] = uniform[k];
    p.waterPerPiece = perVertex;
    p.viscous = hydro_.viscous;
    p.pressureDrag = hydro_.pressureDrag;
    p.inverseReferenceSpeed = btScalar(1) / hydro_.referenceSpeed_mps;
    p.pressureLinear = hydro_.pressureLinear_Pa, p.pressureQuadratic = hydro_.pressureQuadratic_Pa;
    p.pressureFalloff = hydro_.pressureFalloff;
    p.suctionLinear = hydro_.suctionLinear_Pa, p.suctionQuadratic = hydro_.suctionQuadratic_Pa;
    p.suctionFalloff = hydro_.suctionFalloff;
    // Slamming needs the last substep's swept rates; a whole triangle's is
    // its own, so the triangles' slamming comes in the same pass.
    slam = hydro_.slamming && slammingWarm_ && hull_->area_m2() > 0 && dt_s > 0;
    if (slam) {
      p.inverseDt = btScalar(1) / dt_s;
      p.slamming.stopFactor = mass * 2 / hull_->area_m2() / dt_s;
      p.slamming.inverseCutoff = btScalar(1) / hydro_.slammingCutoff_mps2;
      p.slamming.power = hydro_.slammingPower;
      streams[0].previousRate = previousSweptRate_m3ps_.data();
    }
    flow = detail::flowSums(streams, 2, p);
    slamming = p.slamming;
    if (flow.area > 0) {
      const double mean[3] = {flow.waterArea[0] / flow.area, flow.waterArea[1] / flow.area,
                              flow.waterArea[2] / flow.area};
      meanWater = toWorld(mean);
    }
  } else if (hydro_.waterVelocity != WaterVelocitySampling::StillWater && anyWet_) {
    meanWater = sampleBoatWaterVelocity(t_s, flags);
  }
  // The boat's velocity relative to the (area-weighted mean) water under it.
  const btVector3 relative = v - meanWater;
  auto world = [&](const detail::BodyForce& f, double scale) {
    const double force[3] = {f.force[0] * scale, f.force[1] * scale, f.force[2] * scale};
    const double torque[3] = {f.torque[0] * scale, f.torque[1] * scale, f.torque[2] * scale};
    return ForceTorque{toWorld(force), toWorld(torque)};
  };
  if (hydro_.viscous && perPiece) {
    const btScalar speed = relative.length();
    const btScalar length =
        speed > 0 ? wettedLengthBody(b.pieces, soa, toBody(basis_, relative / speed)) : btScalar(0);
    const btScalar cf = ittc1957FrictionCoefficient(speed * length / hydro_.kinematicViscosity_m2ps);
    hydroForces_.viscous = world(flow.viscousPerHalfRhoCf, 0.5 * double(settings_.waterDensity_kgpm3) * double(cf));
  }
  if (hydro_.pressureDrag && perPiece) hydroForces_.pressureDrag = world(flow.pressureDrag, 1);
  if (hydro_.slamming) {
    // A cut triangle's swept rate is its pieces' sum (slammingForce's
    // scratch); its pieces' slamming then follows from the triangle's gamma.
    // Crossing triangle k's pieces are slots k and, for k < twoSlots, slots + k.
    if (!perPiece) std::fill(sweptRate_m3ps_.begin(), sweptRate_m3ps_.end(), btScalar(0));
    const std::size_t crossing = perPiece ? b.pieces.crossing : 0, slots = b.pieces.slots;
    const btScalar inverseDt = slam ? btScalar(1) / dt_s : btScalar(0);
    for (std::size_t k = 0; k < crossing; ++k) {
      const auto t = std::size_t(b.crossing[k]);
      const bool two = k < b.pieces.twoSlots;
      const btScalar rate = b.pieces.rate[k] + (two ? b.pieces.rate[slots + k] : btScalar(0));
      sweptRate_m3ps_[t] = rate;
      const btScalar gamma = (rate - previousSweptRate_m3ps_[t]) * inverseDt * soa.inverseArea[t];
      b.pieces.gamma[k] = gamma;
      if (two) b.pieces.gamma[slots + k] = gamma;
    }
    detail::BodyForce total = flow.slamming;
    if (slam) total += detail::slammingSums(pieces, pieceFlow, b.pieces.gamma.data(), slamming);
    hydroForces_.slamming = world(total, 1);
    sweptRate_m3ps_.swap(previousSweptRate_m3ps_);
    slammingWarm_ = true;
  }
  if (hydro_.airResistance) {
    detail::AirParameters p;
    const btVector3 air = toBody(basis_, v - hydro_.wind_mps);
    for (int k = 0; k < 3; ++k) p.airVelocity[k] = air[k], p.angularVelocity[k] = wBody[k];
    p.half = btScalar(0.5) * hydro_.airDensity_kgpm3 * hydro_.airDragCoefficient;
    hydroForces_.air = world(detail::airSums(soa, b.emerged.data(), p), 1);
  }
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
  basis_ = com.getBasis();
  cutBuilt_ = false;
  const detail::HullSoA& soa = hull_->soa();
  const std::size_t n = soa.vertexCount;
  // The water's axes in the body frame: the hull's vertices are used as they are.
  const btVector3 east = toBody(basis_, frame_.east), north = toBody(basis_, frame_.north),
                  up = toBody(basis_, frame_.up);
  const double cu = double(centre_.dot(frame_.east)), cv = double(centre_.dot(frame_.north));
  std::size_t bad = 0, asked = 0;
  // The surface is user code running inside Bullet's step: an exception
  // escaping here would leave Bullet mid-step, so it is caught and reported.
  vertexVelocitiesSampled_ = false;
  try {
    if (settings_.sampling == Sampling::Patch) {
      bad = patch_.sample(*surface_, cu, cv, t_s);
      asked = patch_.samples_m().size();
      detail::patchHeights(soa, patch_, east, north, cu, cv, waterHeight_m_.data());
    } else {
      // The water's velocity at every vertex too when the hydrodynamics want
      // it there: one query, which a surface can answer with one solve.
      vertexVelocitiesSampled_ = perVertexVelocities_;
      detail::BoatBuffers& b = *buffers_;
      detail::worldCoordinates(soa, east, north, up, cu, cv, centre_.dot(frame_.up), b.u_m.data(), b.v_m.data(),
                               vertexVelocitiesSampled_ ? b.w_m.data() : nullptr);
      if (vertexVelocitiesSampled_)
        surface_->heightsAndVelocities(b.u_m.data(), b.v_m.data(), b.w_m.data(), n, t_s, waterHeight_m_.data(),
                                       b.velocity.data());
      else
        surface_->heights(b.u_m.data(), b.v_m.data(), n, t_s, waterHeight_m_.data());
      asked = n;
    }
  } catch (...) {
    return Sample::Threw;
  }
  // The heights above the water; the kernel also counts the non-finite
  // water heights, which are rare: only then are they replaced (by the
  // mean of the finite ones) and the heights taken again.
  const btScalar centreUp = centre_.dot(frame_.up);
  detail::VertexHeights heights = detail::vertexHeights(soa, up, centreUp, waterHeight_m_.data(), h_m_.data());
  if (heights.nonFinite > 0) {
    const std::size_t replaced = replaceNonFinite(std::span<btScalar>(waterHeight_m_).first(n));
    bad += replaced;
    if (replaced < n) heights = detail::vertexHeights(soa, up, centreUp, waterHeight_m_.data(), h_m_.data());
  }
  status_.nonFiniteHeights += bad;
  if (bad == asked) return Sample::NoFiniteHeight;  // nothing finite to stand in for the bad samples
  const detail::Extent water = heights.water;
  // Whole triangles go to the SIMD sums as they are; the few the waterline
  // crosses are cut (cutTriangle's cut, vectorised) into a stream of pieces.
  detail::BoatBuffers& b = *buffers_;
  crossingCount_ = detail::classifyTriangles(soa, h_m_.data(), up, centreUp, water, b);
  // Some of the hull is wet exactly when a vertex is (every vertex belongs
  // to a triangle, which then crosses the waterline or lies under it).
  anyWet_ = heights.lowestAbove_m < 0;
  // The water velocity at the vertices, before the cut, which interpolates
  // it to the pieces: when the flow is wanted piece by piece and some of
  // the hull is wet. Asked with the heights (direct sampling), or now of
  // the wet vertices and the crossing triangles' corners.
  velocityFlags_ = StatusOk;
  const bool velocities = perVertexVelocities_ && anyWet_;
  if (velocities)
    velocityFlags_ =
        vertexVelocitiesSampled_ ? storeVertexWaterVelocities(n, nullptr) : sampleVertexWaterVelocities(t_s);
  detail::cutCrossing(soa, b, crossingCount_, velocities);
  for (std::size_t k = 0; k < crossingCount_; ++k) b.emerged[std::size_t(b.crossing[k])] = b.pieces.emerged[k];
  const detail::PieceStream streams[2] = {b.triangles(soa), b.pieces.stream()};
  const detail::PressureSums sums = detail::pressureSums(streams, 2, up);
  result_ = detail::pressureResult(sums, settings_.waterDensity_kgpm3, gravity_mps2.length(), up);
  result_.force_N = basis_ * result_.force_N;
  result_.torque_Nm = basis_ * result_.torque_Nm;
  result_.centreOfBuoyancy = basis_ * result_.centreOfBuoyancy;
  return bad > 0 ? Sample::SomeNonFinite : Sample::Ok;
}

void WaterAction::buildCut() const {
  if (cutBuilt_) return;
  if (r_.size() != hull_->vertices().size()) {  // first use: the substep itself never needs them
    r_.assign(hull_->vertices().size(), btVector3(0, 0, 0));
    cut_.reserve(hull_->triangles().size());
  }
  rotateVertices(basis_, hull_->vertices(), r_);
  cutHull(r_, std::span<const btScalar>(h_m_.data(), hull_->vertices().size()), *hull_, cut_);
  cutBuilt_ = true;
}

std::span<const SubmergedPiece> WaterAction::submergedPieces() const {
  buildCut();
  return cut_.pieces;
}

std::span<const WaterlineSegment> WaterAction::waterline() const {
  buildCut();
  return cut_.waterline;
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
  buffers_ = &detail::threadBuffers(hull_->soa());
  pendingLinear_mps_.setZero();
  pendingAngular_radps_.setZero();
  if (body_->isStaticOrKinematicObject() || !(body_->getInvMass() > 0)) {
    finishStatus(StatusStaticBody, true);
    return false;
  }
  // The water's frame, again only when gravity changed.
  const btVector3 gravity = body_->getGravity();
  if (!(frameValid_ && gravity == frameGravity_)) {
    frameValid_ = WaterFrame::fromGravity(gravity, frame_);
    frameGravity_ = gravity;
  }
  if (!frameValid_) {
    finishStatus(StatusNoGravity, true);
    return false;
  }
  perVertexVelocities_ = wantVertexVelocities();
  if (!isFinite(body_->getCenterOfMassTransform())) {
    finishStatus(StatusNonFiniteBody, true);
    return false;
  }
  const Sample sample = computeHydrostatics(gravity, btScalar(time_s_));
  if (sample == Sample::Threw || sample == Sample::NoFiniteHeight) {
    clearResults();
    anyWet_ = false;
    cut_.pieces.clear();
    cut_.waterline.clear();
    cut_.emerged.clear();
    cutBuilt_ = true;
    finishStatus(sample == Sample::Threw ? StatusSurfaceThrew : (StatusNonFiniteHeight | StatusNoFiniteHeight), true);
    return false;
  }
  std::uint32_t flags = (sample == Sample::SomeNonFinite ? StatusNonFiniteHeight : StatusOk) | velocityFlags_;
  if (!anyWet_) flags |= StatusDry;
  if (crossingCount_ == 0 && anyWet_) flags |= StatusSubmerged;
  hydroForces_ = HydrodynamicForces{};
  if (anyHydrodynamics() && (anyWet_ || hydro_.airResistance))
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
  if (anyWet_) {
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
  buildCut();
  const btVector3 pieceColour(0.1f, 0.4f, 1.0f), waterlineColour(1.0f, 1.0f, 1.0f), forceColour(1.0f, 0.2f, 0.1f);
  for (const SubmergedPiece& p : cut_.pieces)
    for (int k = 0; k < 3; ++k) drawer->drawLine(centre_ + p.r[k], centre_ + p.r[(k + 1) % 3], pieceColour);
  for (const WaterlineSegment& s : cut_.waterline) drawer->drawLine(centre_ + s.a, centre_ + s.b, waterlineColour);
  if (debugForceScale_N <= 0) return;
  if (anyWet_) {
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

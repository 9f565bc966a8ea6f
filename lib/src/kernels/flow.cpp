// The flow and slamming kernels (flow.hpp), one copy per instruction set
// (simd-inl.hpp).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/flow.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/flow.hpp"
#include "kernels/simd-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// Speeds below this [m/s] have no direction (the clamp stage's kTinySpeed_mps, substep/clamp.cpp).
constexpr T kTinySpeed_mps = T(1e-6);

/// The factor k of slamming's force k v on the pieces that move into the
/// water while their swept volume grows (gamma > 0): -min(gamma / Gamma_max,
/// 1)^p cos(theta) (2 m A / S) / dt (slammingForce). Zero elsewhere.
HWY_INLINE V slammingFactor(D d, V cosTheta, V gamma, V area, M wet, V inverseCutoff, V stop, T exponent) {
  const V zero = hn::Zero(d);
  const M hits = hn::And(wet, hn::And(hn::Gt(cosTheta, zero), hn::Gt(gamma, zero)));
  const V ratio = hn::Min(hn::Mul(hn::IfThenElseZero(hits, gamma), inverseCutoff), hn::Set(d, T(1)));
  return hn::IfThenElseZero(hits, hn::Neg(hn::Mul(hn::Mul(power(d, ratio, exponent), cosTheta), hn::Mul(stop, area))));
}

/// FlowParameters as vectors (body axes).
struct FlowVectors {
  V zero, one, tiny2;  ///< 0, 1, kTinySpeed_mps^2 [m^2/s^2]
  V3 angular;          ///< [rad/s]
  V3 linear;           ///< v_G - u_water, the water's only when uniform [m/s]
  V inverseReference;  ///< [s/m]
  V pressureLinear, pressureQuadratic, suctionLinear, suctionQuadratic;  ///< [Pa]
  V inverseDt, inverseCutoff, stop;                                      ///< [1/s], [s^2/m], [kg/(m^2 s)]

  HWY_INLINE FlowVectors(D d, const FlowParameters& p)
      : zero(hn::Zero(d)), one(hn::Set(d, T(1))), tiny2(hn::Set(d, kTinySpeed_mps * kTinySpeed_mps)) {
    angular = set3(d, p.angularVelocity_radps);
    const T base[3] = {p.linearVelocity_mps[0] - (p.waterPerPiece ? T(0) : p.water_mps[0]),
                       p.linearVelocity_mps[1] - (p.waterPerPiece ? T(0) : p.water_mps[1]),
                       p.linearVelocity_mps[2] - (p.waterPerPiece ? T(0) : p.water_mps[2])};
    linear = set3(d, base);
    inverseReference = hn::Set(d, p.inverseReferenceSpeed_spm);
    pressureLinear = hn::Set(d, p.pressureLinear_Pa), pressureQuadratic = hn::Set(d, p.pressureQuadratic_Pa);
    suctionLinear = hn::Set(d, p.suctionLinear_Pa), suctionQuadratic = hn::Set(d, p.suctionQuadratic_Pa);
    inverseDt = hn::Set(d, p.inverseDt_ps), inverseCutoff = hn::Set(d, p.slamming.inverseCutoff);
    stop = hn::Set(d, p.slamming.stopFactor);
  }
};

/// flowSums' sums, in vector lanes.
struct FlowLanes {
  ForceSum viscous, pressure, slamming;
  Sum waterX, waterY, waterZ, areaSum;  ///< sum A u [m^3/s], sum A [m^2]
  HWY_INLINE FlowLanes() {}             // (the implicit one would lack the instruction set's attributes)
};

/// What the flow terms need of a vector of pieces (body axes).
struct FlowPiece {
  M wet;                ///< pieces of positive weight and area
  V area, inverseArea;  ///< A [m^2], 1 / A [1/m^2] (0 where not wet)
  V3 s, c, cs;          ///< area vector S [m^2], centroid C [m], C x S [m^3]
  V3 v, cv;             ///< velocity relative to the water at C [m/s], C x v [m^2/s]
  V speed2, vn;         ///< |v|^2 [m^2/s^2], v . n [m/s]
};

/// v_G + omega x C - u_water(C) (pieceFlows), and A u_water into the sums
/// when the water's velocity is given per piece.
HWY_INLINE V3 relativeVelocity(D d, const FlowVectors& f, bool waterPerPiece, const PieceStream& s, std::size_t i, V3 c,
                               V area, FlowLanes& sums) {
  V3 v = add(f.linear, cross(f.angular, c));
  if (waterPerPiece) {
    const V3 water = load3(d, s.ux, s.uy, s.uz, i);
    v = sub(v, water);
    sums.waterX.addProduct(i, area, water.x), sums.waterY.addProduct(i, area, water.y);
    sums.waterZ.addProduct(i, area, water.z);
  }
  return v;
}

/// Skin friction without its factor 1/2 rho Cf (viscousForce), the normal
/// part removed before normalising: v_t = v - n (v . n) = v - S (v . n) / A;
/// F = -A |v|^2 v_t / |v_t| at C, moment C x v_t = C x v - (C x S) (v . n) / A.
HWY_INLINE void addSkinFriction(D d, const FlowVectors& f, const FlowPiece& x, std::size_t i, ForceSum& viscous) {
  const V along = hn::Mul(x.vn, x.inverseArea);
  const V3 tangential = {negMulAdd(x.s.x, along, x.v.x), negMulAdd(x.s.y, along, x.v.y),
                         negMulAdd(x.s.z, along, x.v.z)};
  const V vt2 = dot(tangential, tangential);
  const M sliding = hn::And(x.wet, hn::Gt(vt2, f.tiny2));
  const V inverseVt = inverseSqrt(d, hn::IfThenElse(sliding, vt2, f.one));
  const V k = hn::IfThenElseZero(sliding, hn::Neg(hn::Mul(hn::Mul(x.area, x.speed2), inverseVt)));
  const V3 arm = {negMulAdd(x.cs.x, along, x.cv.x), negMulAdd(x.cs.y, along, x.cv.y), negMulAdd(x.cs.z, along, x.cv.z)};
  viscous.add(i, k, tangential, arm);
}

/// The factor k of F = k S: pressure drag on faces moving into the water,
/// suction on the others (pressureDragForce), k = -/+ (C1 r + C2 r^2) cos^f,
/// r = |v| / vr.
HWY_INLINE V pressureDragFactor(D d, const FlowVectors& f, const FlowParameters& p, V speed, V cosTheta) {
  const V ratio = hn::Mul(speed, f.inverseReference);
  const V into = hn::Mul(ratio, mulAdd(f.pressureQuadratic, ratio, f.pressureLinear));
  const V away = hn::Mul(ratio, mulAdd(f.suctionQuadratic, ratio, f.suctionLinear));
  const M forward = hn::Gt(cosTheta, f.zero), backward = hn::Lt(cosTheta, f.zero);
  // cos^f of |cos theta|: one root when both falloffs are alike (the default).
  const V absCos = hn::Abs(cosTheta);
  const V intoFalloff = power(d, absCos, p.pressureFalloff);
  const V awayFalloff = p.suctionFalloff == p.pressureFalloff ? intoFalloff : power(d, absCos, p.suctionFalloff);
  return hn::IfThenElse(forward, hn::Neg(hn::Mul(into, intoFalloff)),
                        hn::IfThenElseZero(backward, hn::Mul(away, awayFalloff)));
}

/// Every flow term of pieces i... of stream s.
HWY_INLINE void flowVector(D d, const FlowVectors& f, const FlowParameters& p, const PieceStream& s,
                           const PieceFlowOut& out, const T* previousRate, std::size_t i, FlowLanes& sums) {
  // A piece the cut left without area has no normal (pieceFlows): skipped.
  const V pieceArea = hn::LoadU(d, s.area + i);
  FlowPiece x;
  x.wet = hn::And(hn::Gt(hn::LoadU(d, s.weight + i), f.zero), hn::Gt(pieceArea, f.zero));
  if (hn::AllFalse(d, x.wet)) {  // a dry stretch of hull: nothing flows, nothing sweeps
    hn::StoreU(f.zero, d, out.rate + i);
    return;
  }
  x.area = hn::IfThenElseZero(x.wet, pieceArea);
  x.inverseArea = hn::IfThenElseZero(x.wet, hn::LoadU(d, s.inverseArea + i));
  x.s = load3(d, s.sx, s.sy, s.sz, i);
  x.c = centroid(d, s, i);
  x.v = relativeVelocity(d, f, p.waterPerPiece, s, i, x.c, x.area, sums);
  sums.areaSum.add(i, x.area);
  // v . n with the unit normal S / A (pieceFlows): (v . S) / A, never
  // (v . S) / A^2, whose A^2 underflows for the slivers a cut can leave.
  // |v| and 1 / |v| (0 and 1 when the piece is not moving).
  x.speed2 = dot(x.v, x.v);
  const V vS = dot(x.v, x.s);
  x.vn = hn::Mul(vS, x.inverseArea);
  const M moving = hn::And(x.wet, hn::Gt(x.speed2, f.tiny2));
  const V inverseSpeed = inverseSqrt(d, hn::IfThenElse(moving, x.speed2, f.one));
  const V speed = hn::IfThenElseZero(moving, hn::Mul(x.speed2, inverseSpeed));
  const V rate = hn::IfThenElseZero(x.wet, hn::Max(vS, f.zero));  // A max(0, v . n)
  hn::StoreU(rate, d, out.rate + i);
  // Forces along v (slamming) and along v_t (skin friction) act at C: their
  // moments share C x v.
  x.cv = cross(x.c, x.v);
  x.cs = load3(d, s.csx, s.csy, s.csz, i);
  if (p.viscous) addSkinFriction(d, f, x, i, sums.viscous);
  const V cosTheta = hn::IfThenElseZero(moving, hn::Mul(x.vn, inverseSpeed));
  if (out.vx) {  // kept for SlammingKernel
    hn::StoreU(x.v.x, d, out.vx + i), hn::StoreU(x.v.y, d, out.vy + i), hn::StoreU(x.v.z, d, out.vz + i);
    hn::StoreU(cosTheta, d, out.cosTheta + i);
  }
  if (previousRate) {
    // Gamma = (rate - previous rate) / (A dt) (slammingForce), then the
    // slamming of SlammingKernel.
    const V gamma = hn::Mul(hn::Mul(hn::Sub(rate, hn::LoadU(d, previousRate + i)), x.inverseArea), f.inverseDt);
    sums.slamming.add(i, slammingFactor(d, cosTheta, gamma, x.area, x.wet, f.inverseCutoff, f.stop, p.slamming.power),
                      x.v, x.cv);
  }
  if (p.pressureDrag) sums.pressure.add(i, pressureDragFactor(d, f, p, speed, cosTheta), x.s, x.cs);
}

FlowSums FlowKernel(const FlowStream* streams, std::size_t streamCount, const FlowParameters& parameters) {
  const D d;
  const FlowParameters p = parameters;  // a local copy: see simd-inl.hpp
  const FlowVectors f(d, p);
  FlowLanes lanes;
  for (std::size_t k = 0; k < streamCount; ++k) {
    const PieceStream s = streams[k].pieces;
    const PieceFlowOut out = streams[k].out;
    const T* previousRate = streams[k].previousRate;
    for (std::size_t i = 0; i < s.count; i += hn::Lanes(d)) flowVector(d, f, p, s, out, previousRate, i, lanes);
  }
  FlowSums sums;
  sums.viscousPerHalfRhoCf = lanes.viscous.total();
  sums.pressureDrag = lanes.pressure.total();
  sums.slamming = lanes.slamming.total();
  sums.area = lanes.areaSum.total();
  if (p.waterPerPiece) {
    sums.waterArea[0] = lanes.waterX.total();
    sums.waterArea[1] = lanes.waterY.total();
    sums.waterArea[2] = lanes.waterZ.total();
  } else {
    for (int k = 0; k < 3; ++k) sums.waterArea[k] = double(p.water_mps[k]) * sums.area;
  }
  return sums;
}

BodyForce SlammingKernel(const PieceStream& s, const PieceFlowOut& flow, const T* gamma, const SlammingParameters& p) {
  const D d;
  const V zero = hn::Zero(d), inverseCutoff = hn::Set(d, p.inverseCutoff), stop = hn::Set(d, p.stopFactor);
  ForceSum slam;
  for (std::size_t i = 0; i < s.count; i += hn::Lanes(d)) {
    const M wet = hn::Gt(hn::LoadU(d, s.weight + i), zero);
    if (hn::AllFalse(d, wet)) continue;
    const V3 v = load3(d, flow.vx, flow.vy, flow.vz, i);
    const V k = slammingFactor(d, hn::LoadU(d, flow.cosTheta + i), hn::LoadU(d, gamma + i), hn::LoadU(d, s.area + i),
                               wet, inverseCutoff, stop, p.power);
    slam.add(i, k, v, cross(centroid(d, s, i), v));
  }
  return slam.total();
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(FlowKernel);
HWY_EXPORT(SlammingKernel);

BodyForce& BodyForce::operator+=(const BodyForce& o) {
  for (int k = 0; k < 3; ++k) {
    force[k] += o.force[k];
    torque[k] += o.torque[k];
  }
  return *this;
}

FlowSums flowSums(const FlowStream* streams, std::size_t count, const FlowParameters& p) {
  return HWY_DYNAMIC_DISPATCH(FlowKernel)(streams, count, p);
}

BodyForce slammingSums(const PieceStream& s, const PieceFlowOut& flow, const btScalar* gamma,
                       const SlammingParameters& p) {
  return HWY_DYNAMIC_DISPATCH(SlammingKernel)(s, flow, gamma, p);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE

// The batch queries of SineSumSurface and GerstnerSurface vectorised across
// points with Highway: one point per lane of a vector of doubles, on the
// widest instruction set the CPU has (SSE4, AVX2 or AVX-512, chosen at run
// time), with Highway's vector Sin, Cos and Exp. docs/waves.md, "Batches".

// Floating-point contraction off: the only fused multiply-adds here are the
// ones written (MulAdd). Phases are then computed with the scalar code's
// operations, bit for bit, on every instruction set (GCC would otherwise fuse
// Highway's Mul and Add where the CPU has FMA).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

// Highway compiles this file once per instruction set: foreach_target.h
// includes it again for each, by this path from lib/include, the library's
// one include directory (through keel/, so that no other directory on the
// include path can match).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "waves_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include "wave_detail.hpp"
#include "waves_simd.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <span>

HWY_BEFORE_NAMESPACE();
namespace keel::detail::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using M = hn::Mask<D>;
constexpr std::size_t kLanes = hn::MaxLanes(D());

/// Highway's Sin and Cos are accurate (3 ulp) for |x| <= 39000 rad
/// (hwy/contrib/math/math-inl.h). A point whose phases could leave that
/// range is handed to the scalar code.
constexpr double kPhaseLimit_rad = 39000;
/// `phi - omega t` beyond this [rad] is reduced modulo 2 pi (below, it is
/// used as it is, as the scalar code does).
constexpr double kReducePhaseBeyond_rad = 1024;

/// Components whose per-call constants are kept on the stack; the others'
/// are recomputed where used (the same numbers, more slowly).
constexpr std::size_t kKeptComponents = 64;

/// The part of a component's phase that does not depend on position,
/// `phi - omega t` [rad]: the scalar code's value while it stays below
/// kReducePhaseBeyond_rad, so that phases match the single-point queries'
/// bits over the first minutes; then reduced to [-pi, pi], so that the time
/// never takes a phase out of Sin's range (omega t passes 39000 rad within
/// hours). The remainder is exact; the double 2 pi differs from 2 pi by
/// 2.4e-16, which shifts the phase by |phi - omega t| * 4e-17 rad, less than
/// the rounding of phi - omega t itself.
[[nodiscard]] double phaseAtOriginForSin_rad(const WaveComponent& c, double t_s) {
  const double phase0_rad = phaseAtOrigin_rad(c, t_s);
  return std::abs(phase0_rad) <= kReducePhaseBeyond_rad
             ? phase0_rad
             : std::remainder(phase0_rad, 2 * std::numbers::pi);
}

/// One sine-sum component's constants for a batch at time t.
struct SineTerm {
  double wavenumber_radpm;
  double directionEast, directionNorth;
  double phase0_rad;  // phi - omega t, reduced when large
  double amplitude_m;
  double speed_mps;  // a omega: orbital speed at the surface
};

[[nodiscard]] SineTerm sineTerm(const WaveComponent& c, double t_s) {
  return {c.wavenumber_radpm,
          c.directionEast,
          c.directionNorth,
          phaseAtOriginForSin_rad(c, t_s),
          c.amplitude_m,
          c.amplitude_m * c.angularFrequency_radps};
}

/// One Gerstner component's constants for a batch at time t and steepness Q:
/// its terms in F(x0) = x0 - x - sum Q a d sin(theta), in the Jacobian
/// I - sum Q a k cos(theta) d d^T, and in the particle velocity.
struct GerstnerTerm {
  double wavenumber_radpm;
  double directionEast, directionNorth;
  double phase0_rad;  // phi - omega t, reduced when large
  double amplitude_m;
  double horizontalEast_m, horizontalNorth_m;  // Q a d
  double curvatureEE, curvatureEN, curvatureNN;  // Q a k d d^T
  double speed_mps;                              // a omega
  double steepness;                              // Q
};

[[nodiscard]] GerstnerTerm gerstnerTerm(const WaveComponent& c, double steepness, double t_s) {
  const double horizontal_m = steepness * c.amplitude_m;
  const double curvature = horizontal_m * c.wavenumber_radpm;
  return {c.wavenumber_radpm,
          c.directionEast,
          c.directionNorth,
          phaseAtOriginForSin_rad(c, t_s),
          c.amplitude_m,
          horizontal_m * c.directionEast,
          horizontal_m * c.directionNorth,
          curvature * c.directionEast * c.directionEast,
          curvature * c.directionEast * c.directionNorth,
          curvature * c.directionNorth * c.directionNorth,
          c.amplitude_m * c.angularFrequency_radps,
          steepness};
}

/// The components' constants for one batch: the first kKeptComponents on
/// the stack, the rest made again at each use. `make(component)` builds one.
template <class Term, class Make>
class Terms {
 public:
  Terms(std::span<const WaveComponent> components, Make make)
      : components_(components), make_(make) {
    double maxWavenumber_radpm = 0, maxPhase0_rad = 0;
    for (std::size_t i = 0; i < components.size(); ++i) {
      const Term term = make(components[i]);
      if (i < kKeptComponents) kept_[i] = term;
      maxWavenumber_radpm = std::max(maxWavenumber_radpm, term.wavenumber_radpm);
      maxPhase0_rad = std::max(maxPhase0_rad, std::abs(term.phase0_rad));
    }
    // |k d.x + phase0| <= k (|x| + |y|) + |phase0|, and |phase0| <= 1024.
    positionLimit_m_ = maxWavenumber_radpm > 0
                           ? (kPhaseLimit_rad - maxPhase0_rad) / maxWavenumber_radpm
                           : std::numeric_limits<double>::infinity();
  }

  [[nodiscard]] std::size_t size() const { return components_.size(); }
  [[nodiscard]] Term operator[](std::size_t i) const {
    return i < kKeptComponents ? kept_[i] : make_(components_[i]);
  }
  /// Points with |x| + |y| up to this [m] keep every phase in Sin's range.
  [[nodiscard]] double positionLimit_m() const { return positionLimit_m_; }

 private:
  std::span<const WaveComponent> components_;
  Make make_;
  // Not zeroed: the constructor writes the first size() before any read.
  std::array<Term, kKeptComponents> kept_;
  double positionLimit_m_ = 0;
};

/// Lanes whose point (x, y) [m] keeps every phase within Sin's range.
[[nodiscard]] M inPhaseRange(D d, V x, V y, double positionLimit_m) {
  return hn::Le(hn::Add(hn::Abs(x), hn::Abs(y)), hn::Set(d, positionLimit_m));
}

/// Phase theta = k d.(x, y) + phase0 of one component in every lane [rad],
/// with the operations of detail::phase_rad.
template <class Term>
[[nodiscard]] V phase(D d, const Term& c, V x, V y) {
  const V along_m = hn::Add(hn::Mul(hn::Set(d, c.directionEast), x),
                            hn::Mul(hn::Set(d, c.directionNorth), y));
  return hn::Add(hn::Mul(hn::Set(d, c.wavenumber_radpm), along_m), hn::Set(d, c.phase0_rad));
}

/// sin and cos of a phase in every lane.
struct SinCos {
  V sine, cosine;
};

/// sin and cos of the first kKeptComponents components' phases, kLanes
/// lanes per component, kept from where a batch computes them to where it
/// uses them again; the other components' are computed afresh (the same
/// numbers: same phase, same Sin and Cos).
struct LanePhases {
  // Not zeroed: each batch writes the first components before any read.
  HWY_ALIGN double sine[kKeptComponents * kLanes];
  HWY_ALIGN double cosine[kKeptComponents * kLanes];

  /// Stores component i's sin and cos in the lanes of `m` (i < kKeptComponents).
  void store(D d, std::size_t i, M m, V sinTheta, V cosTheta) {
    hn::BlendedStore(sinTheta, m, d, sine + i * kLanes);
    hn::BlendedStore(cosTheta, m, d, cosine + i * kLanes);
  }
};

/// Component i's sin and cos at (x, y): kept in `phases`, or computed when
/// `phases` is null or i is not kept.
template <class Term>
[[nodiscard]] SinCos sinCos(D d, const LanePhases* phases, std::size_t i, const Term& c, V x, V y) {
  if (phases != nullptr && i < kKeptComponents) {
    return {hn::Load(d, phases->sine + i * kLanes), hn::Load(d, phases->cosine + i * kLanes)};
  }
  const V theta = phase(d, c, x, y);
  return {hn::Sin(d, theta), hn::Cos(d, theta)};
}

/// Points [begin, begin + kLanes) of `values` as doubles, the batch's tail
/// padded with copies of its last point: every point, the last ones too,
/// goes through the same vector code.
[[nodiscard]] V loadPadded(D d, const btScalar* values, std::size_t begin, std::size_t count) {
  HWY_ALIGN double lanes[kLanes];
  for (std::size_t j = 0; j < kLanes; ++j) lanes[j] = values[std::min(begin + j, count - 1)];
  return hn::Load(d, lanes);
}

/// Lane j of `v`, for j < kLanes.
struct Lanes {
  explicit Lanes(D d, V v) { hn::Store(v, d, values); }
  HWY_ALIGN double values[kLanes];
};

/// Which lanes of `m` are set, one bool per lane.
struct LaneFlags {
  explicit LaneFlags(D d, M m) {
    const Lanes ones(d, hn::IfThenElseZero(m, hn::Set(d, 1.0)));
    for (std::size_t j = 0; j < kLanes; ++j) set[j] = ones.values[j] != 0;
  }
  bool set[kLanes];
};

/// Depth below the surface, `w - eta` clamped to <= 0 (Wheeler stretching:
/// above the surface, the surface's own velocity). A NaN depth stays NaN, as
/// std::min(depth, 0.0) leaves it in the scalar code.
[[nodiscard]] V depthBelowSurface(D d, V w, V eta) {
  const V depth = hn::Sub(w, eta);
  return hn::IfThenElse(hn::Gt(depth, hn::Zero(d)), hn::Zero(d), depth);
}

// --- Sums of sines ------------------------------------------------------------

template <class Table>
[[nodiscard]] V sineSumElevation(D d, const Table& terms, double meanLevel_m, V x, V y) {
  V eta = hn::Set(d, meanLevel_m);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const SineTerm c = terms[i];
    eta = hn::Add(eta, hn::Mul(hn::Set(d, c.amplitude_m), hn::Cos(d, phase(d, c, x, y))));
  }
  return eta;
}

void SineSumHeights(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                    const btScalar* u_m, const btScalar* v_m, std::size_t count, btScalar t_s,
                    btScalar* out_m, PointFallback fallback) {
  const D d;
  const double t = t_s;
  const auto make = [t](const WaveComponent& c) { return sineTerm(c, t); };
  const Terms<SineTerm, decltype(make)> terms(components, make);
  // The field drifts with the current: evaluate it at x - current t.
  const V driftEast_m = hn::Set(d, settings.current.east_mps * t);
  const V driftNorth_m = hn::Set(d, settings.current.north_mps * t);
  for (std::size_t begin = 0; begin < count; begin += kLanes) {
    const V x = hn::Sub(loadPadded(d, u_m, begin, count), driftEast_m);
    const V y = hn::Sub(loadPadded(d, v_m, begin, count), driftNorth_m);
    const Lanes eta(d, sineSumElevation(d, terms, settings.meanLevel_m, x, y));
    const LaneFlags ok(d, inPhaseRange(d, x, y, terms.positionLimit_m()));
    for (std::size_t j = 0; j < kLanes && begin + j < count; ++j) {
      if (ok.set[j]) {
        out_m[begin + j] = static_cast<btScalar>(eta.values[j]);
      } else {
        fallback(begin + j);
      }
    }
  }
}

/// SineSumVelocities and SineSumHeightsAndVelocities: the elevation and the
/// velocity of every point from the same phases, the heights stored when
/// `height_out_m` is not null. The elevation is sineSumElevation's, term by
/// term, so the heights are SineSumHeights' bits.
void SineSumElevationsAndVelocities(std::span<const WaveComponent> components,
                                    const WaveFieldSettings& settings, const btScalar* u_m,
                                    const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                    btScalar t_s, btScalar* height_out_m,
                                    WaterVelocity* velocity_out, PointFallback fallback) {
  const D d;
  const double t = t_s;
  const auto make = [t](const WaveComponent& c) { return sineTerm(c, t); };
  const Terms<SineTerm, decltype(make)> terms(components, make);
  const V driftEast_m = hn::Set(d, settings.current.east_mps * t);
  const V driftNorth_m = hn::Set(d, settings.current.north_mps * t);
  // sin and cos of the kept components' phases, from the elevation to the
  // velocity; the phase and its Sin are computed once.
  LanePhases phases;
  for (std::size_t begin = 0; begin < count; begin += kLanes) {
    const V x = hn::Sub(loadPadded(d, u_m, begin, count), driftEast_m);
    const V y = hn::Sub(loadPadded(d, v_m, begin, count), driftNorth_m);
    V eta = hn::Set(d, settings.meanLevel_m);
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const SineTerm c = terms[i];
      const V theta = phase(d, c, x, y);
      const V cosine = hn::Cos(d, theta);
      if (i < kKeptComponents) {
        hn::Store(hn::Sin(d, theta), d, phases.sine + i * kLanes);
        hn::Store(cosine, d, phases.cosine + i * kLanes);
      }
      eta = hn::Add(eta, hn::Mul(hn::Set(d, c.amplitude_m), cosine));
    }
    const V z = depthBelowSurface(d, loadPadded(d, w_m, begin, count), eta);
    // Linear deep-water orbital velocity (Dean & Dalrymple 1991, ch. 3):
    // a omega e^{k z} (cos theta along d, sin theta up), summed with the
    // scalar code's operations.
    V east = hn::Zero(d), north = hn::Zero(d), up = hn::Zero(d);
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const SineTerm c = terms[i];
      const SinCos sc = sinCos(d, &phases, i, c, x, y);
      const V orbital_mps =
          hn::Mul(hn::Set(d, c.speed_mps), hn::Exp(d, hn::Mul(hn::Set(d, c.wavenumber_radpm), z)));
      const V along_mps = hn::Mul(orbital_mps, sc.cosine);
      east = hn::Add(east, hn::Mul(along_mps, hn::Set(d, c.directionEast)));
      north = hn::Add(north, hn::Mul(along_mps, hn::Set(d, c.directionNorth)));
      up = hn::Add(up, hn::Mul(orbital_mps, sc.sine));
    }
    const Lanes height(d, eta);
    const Lanes e(d, hn::Add(east, hn::Set(d, settings.current.east_mps)));
    const Lanes n(d, hn::Add(north, hn::Set(d, settings.current.north_mps)));
    const Lanes u(d, up);
    const LaneFlags ok(d, inPhaseRange(d, x, y, terms.positionLimit_m()));
    for (std::size_t j = 0; j < kLanes && begin + j < count; ++j) {
      if (ok.set[j]) {
        if (height_out_m != nullptr) {
          height_out_m[begin + j] = static_cast<btScalar>(height.values[j]);
        }
        velocity_out[begin + j] = {static_cast<btScalar>(e.values[j]),
                                   static_cast<btScalar>(n.values[j]),
                                   static_cast<btScalar>(u.values[j])};
      } else {
        fallback(begin + j);
      }
    }
  }
}

void SineSumVelocities(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                       const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                       std::size_t count, btScalar t_s, WaterVelocity* out,
                       PointFallback fallback) {
  SineSumElevationsAndVelocities(components, settings, u_m, v_m, w_m, count, t_s, nullptr, out,
                                 fallback);
}

void SineSumHeightsAndVelocities(std::span<const WaveComponent> components,
                                 const WaveFieldSettings& settings, const btScalar* u_m,
                                 const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                 btScalar t_s, btScalar* height_out_m, WaterVelocity* velocity_out,
                                 PointFallback fallback) {
  SineSumElevationsAndVelocities(components, settings, u_m, v_m, w_m, count, t_s, height_out_m,
                                 velocity_out, fallback);
}

// --- Gerstner ------------------------------------------------------------------

/// gerstner.cpp's GerstnerSums, one point per lane.
struct Sums {
  V residualEast_m, residualNorth_m;  // F = x(x0) - x
  V jacobianEE, jacobianEN, jacobianNN;
  V elevation_m;  // sum a cos(theta)

  [[nodiscard]] V residualSquared_m2() const {
    return hn::MulAdd(residualEast_m, residualEast_m, hn::Mul(residualNorth_m, residualNorth_m));
  }
};

/// `yes` in the lanes of `m`, `no` in the others.
[[nodiscard]] Sums select(M m, const Sums& yes, const Sums& no) {
  return {hn::IfThenElse(m, yes.residualEast_m, no.residualEast_m),
          hn::IfThenElse(m, yes.residualNorth_m, no.residualNorth_m),
          hn::IfThenElse(m, yes.jacobianEE, no.jacobianEE),
          hn::IfThenElse(m, yes.jacobianEN, no.jacobianEN),
          hn::IfThenElse(m, yes.jacobianNN, no.jacobianNN),
          hn::IfThenElse(m, yes.elevation_m, no.elevation_m)};
}

/// The parametric surface at trial rest positions (x0, y0) for target points
/// (x, y) (gerstner.cpp's evaluate): F = x0 - x - sum Q a d sin(theta),
/// J = I - sum Q a k cos(theta) d d^T, elevation sum a cos(theta). When
/// `keep` is not null, the phases' sin and cos go to it in the lanes of
/// `keepLanes`.
template <class Table>
[[nodiscard]] Sums evaluate(D d, const Table& terms, V x0, V y0, V x, V y, LanePhases* keep,
                            M keepLanes) {
  // F = x0 - x and J = I before any component.
  Sums s{hn::Sub(x0, x), hn::Sub(y0, y), hn::Set(d, 1.0),
         hn::Zero(d), hn::Set(d, 1.0), hn::Zero(d)};
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const GerstnerTerm c = terms[i];
    const V theta = phase(d, c, x0, y0);
    const V sine = hn::Sin(d, theta), cosine = hn::Cos(d, theta);
    if (keep != nullptr && i < kKeptComponents) keep->store(d, i, keepLanes, sine, cosine);
    s.residualEast_m = hn::NegMulAdd(hn::Set(d, c.horizontalEast_m), sine, s.residualEast_m);
    s.residualNorth_m = hn::NegMulAdd(hn::Set(d, c.horizontalNorth_m), sine, s.residualNorth_m);
    s.jacobianEE = hn::NegMulAdd(hn::Set(d, c.curvatureEE), cosine, s.jacobianEE);
    s.jacobianEN = hn::NegMulAdd(hn::Set(d, c.curvatureEN), cosine, s.jacobianEN);
    s.jacobianNN = hn::NegMulAdd(hn::Set(d, c.curvatureNN), cosine, s.jacobianNN);
    s.elevation_m = hn::MulAdd(hn::Set(d, c.amplitude_m), cosine, s.elevation_m);
  }
  return s;
}

/// The surface particles above the points of the lanes.
struct RestPoints {
  V x0_m, y0_m;  // rest positions [m]
  V elevation_m;  // height above the mean level [m]
  M converged;    // |F| <= tolerance; the other lanes go to the scalar solve
};

/// gerstner.cpp's solveRestPoint in every lane at once, from x0 = x: Newton's
/// method with step halving on the strictly convex potential whose gradient
/// is F (docs/waves.md), the same tolerance and caps. The loops run while
/// any lane still works; a lane that has converged, run out of halvings or
/// left Sin's range stops updating (masked selects), so each lane follows
/// exactly the iterations it would follow alone.
///
/// When `phases` is not null it receives, in every converged lane, the sin
/// and cos of the phases at the lane's rest point, for the velocity. Each
/// candidate's go to the lanes still searching: a lane stops searching at
/// the candidate it accepts, so its last candidate is its rest point, unless
/// its search failed, and then it has not converged (it searched because
/// |F| was above the tolerance, and no candidate lowered |F|).
template <class Table>
[[nodiscard]] RestPoints solveRestPoints(D d, const Table& terms, V x, V y, LanePhases* phases) {
  const V tolerance2 = hn::Set(d, kGerstnerResidualTolerance_m * kGerstnerResidualTolerance_m);
  const double limit_m = terms.positionLimit_m();
  V x0 = x, y0 = y;
  Sums s = evaluate(d, terms, x0, y0, x, y, phases, hn::FirstN(d, kLanes));
  V r2 = s.residualSquared_m2();
  M failed = hn::Not(inPhaseRange(d, x, y, limit_m));
  M stopped = hn::Or(failed, hn::Le(r2, tolerance2));
  for (int iteration = 0; iteration < kGerstnerMaxNewtonIterations && !hn::AllTrue(d, stopped);
       ++iteration) {
    // Newton step -J^-1 F of the symmetric 2x2 Jacobian.
    const V det = hn::NegMulAdd(s.jacobianEN, s.jacobianEN, hn::Mul(s.jacobianEE, s.jacobianNN));
    const V stepEast_m = hn::Div(
        hn::NegMulAdd(s.jacobianNN, s.residualEast_m, hn::Mul(s.jacobianEN, s.residualNorth_m)),
        det);
    const V stepNorth_m = hn::Div(
        hn::NegMulAdd(s.jacobianEE, s.residualNorth_m, hn::Mul(s.jacobianEN, s.residualEast_m)),
        det);
    M searching = hn::Not(stopped);  // lanes still looking for a step that decreases |F|
    double fraction = 1;
    for (int halving = 0; halving < kGerstnerMaxStepHalvings && !hn::AllFalse(d, searching);
         ++halving, fraction /= 2) {
      const V xc = hn::MulAdd(hn::Set(d, fraction), stepEast_m, x0);
      const V yc = hn::MulAdd(hn::Set(d, fraction), stepNorth_m, y0);
      const M outside = hn::AndNot(inPhaseRange(d, xc, yc, limit_m), searching);
      failed = hn::Or(failed, outside);
      searching = hn::AndNot(outside, searching);
      const Sums candidate = evaluate(d, terms, xc, yc, x, y, phases, searching);
      const V candidateR2 = candidate.residualSquared_m2();
      const M improved = hn::And(searching, hn::Lt(candidateR2, r2));
      x0 = hn::IfThenElse(improved, xc, x0);
      y0 = hn::IfThenElse(improved, yc, y0);
      s = select(improved, candidate, s);
      r2 = hn::IfThenElse(improved, candidateR2, r2);
      searching = hn::AndNot(improved, searching);
    }
    // Lanes no step improved are at the resolution of double: they stop, as
    // in the scalar solve, and go to it unless they have converged.
    stopped = hn::Or(hn::Or(stopped, searching), hn::Or(failed, hn::Le(r2, tolerance2)));
  }
  return {x0, y0, s.elevation_m, hn::AndNot(failed, hn::Le(r2, tolerance2))};
}

void GerstnerHeights(std::span<const WaveComponent> components, const GerstnerSettings& settings,
                     const btScalar* u_m, const btScalar* v_m, std::size_t count, btScalar t_s,
                     btScalar* out_m, PointFallback fallback) {
  const D d;
  const double t = t_s;
  const auto make = [&settings, t](const WaveComponent& c) {
    return gerstnerTerm(c, settings.steepness, t);
  };
  const Terms<GerstnerTerm, decltype(make)> terms(components, make);
  // The field drifts with the current: solve in the drifting frame.
  const V driftEast_m = hn::Set(d, settings.current.east_mps * t);
  const V driftNorth_m = hn::Set(d, settings.current.north_mps * t);
  for (std::size_t begin = 0; begin < count; begin += kLanes) {
    const V x = hn::Sub(loadPadded(d, u_m, begin, count), driftEast_m);
    const V y = hn::Sub(loadPadded(d, v_m, begin, count), driftNorth_m);
    const RestPoints p = solveRestPoints(d, terms, x, y, nullptr);
    const Lanes height(d, hn::Add(hn::Set(d, settings.meanLevel_m), p.elevation_m));
    const LaneFlags ok(d, p.converged);
    for (std::size_t j = 0; j < kLanes && begin + j < count; ++j) {
      if (ok.set[j]) {
        out_m[begin + j] = static_cast<btScalar>(height.values[j]);
      } else {
        fallback(begin + j);
      }
    }
  }
}

/// GerstnerVelocities and GerstnerHeightsAndVelocities: one Newton solve per
/// point for its height and its velocity, the heights stored when
/// `height_out_m` is not null (GerstnerHeights' bits). When `phases` is not
/// null the solve keeps the phases' sin and cos at each rest point in it for
/// the velocity; else they are computed again there (the same numbers).
void GerstnerElevationsAndVelocities(std::span<const WaveComponent> components,
                                     const GerstnerSettings& settings, const btScalar* u_m,
                                     const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                     btScalar t_s, btScalar* height_out_m,
                                     WaterVelocity* velocity_out, LanePhases* phases,
                                     PointFallback fallback) {
  const D d;
  const double t = t_s;
  const auto make = [&settings, t](const WaveComponent& c) {
    return gerstnerTerm(c, settings.steepness, t);
  };
  const Terms<GerstnerTerm, decltype(make)> terms(components, make);
  const V driftEast_m = hn::Set(d, settings.current.east_mps * t);
  const V driftNorth_m = hn::Set(d, settings.current.north_mps * t);
  for (std::size_t begin = 0; begin < count; begin += kLanes) {
    const V x = hn::Sub(loadPadded(d, u_m, begin, count), driftEast_m);
    const V y = hn::Sub(loadPadded(d, v_m, begin, count), driftNorth_m);
    const RestPoints p = solveRestPoints(d, terms, x, y, phases);
    const V eta = hn::Add(hn::Set(d, settings.meanLevel_m), p.elevation_m);
    const V z = depthBelowSurface(d, loadPadded(d, w_m, begin, count), eta);
    // d/dt of x = x0 - sum d Q a sin(theta), eta = sum a cos(theta) at fixed
    // x0 (d theta/dt = -omega), decaying as e^{k z} below the surface; the
    // scalar code's operations.
    V east = hn::Zero(d), north = hn::Zero(d), up = hn::Zero(d);
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const GerstnerTerm c = terms[i];
      const SinCos sc = sinCos(d, phases, i, c, p.x0_m, p.y0_m);
      const V orbital_mps =
          hn::Mul(hn::Set(d, c.speed_mps), hn::Exp(d, hn::Mul(hn::Set(d, c.wavenumber_radpm), z)));
      const V along_mps = hn::Mul(hn::Mul(hn::Set(d, c.steepness), orbital_mps), sc.cosine);
      east = hn::Add(east, hn::Mul(along_mps, hn::Set(d, c.directionEast)));
      north = hn::Add(north, hn::Mul(along_mps, hn::Set(d, c.directionNorth)));
      up = hn::Add(up, hn::Mul(orbital_mps, sc.sine));
    }
    const Lanes height(d, eta);
    const Lanes e(d, hn::Add(east, hn::Set(d, settings.current.east_mps)));
    const Lanes n(d, hn::Add(north, hn::Set(d, settings.current.north_mps)));
    const Lanes u(d, up);
    const LaneFlags ok(d, p.converged);
    for (std::size_t j = 0; j < kLanes && begin + j < count; ++j) {
      if (ok.set[j]) {
        if (height_out_m != nullptr) {
          height_out_m[begin + j] = static_cast<btScalar>(height.values[j]);
        }
        velocity_out[begin + j] = {static_cast<btScalar>(e.values[j]),
                                   static_cast<btScalar>(n.values[j]),
                                   static_cast<btScalar>(u.values[j])};
      } else {
        fallback(begin + j);
      }
    }
  }
}

void GerstnerVelocities(std::span<const WaveComponent> components, const GerstnerSettings& settings,
                        const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                        std::size_t count, btScalar t_s, WaterVelocity* out,
                        PointFallback fallback) {
  // Sin and Cos afresh at each rest point rather than kept from the solve
  // (which would save about 6% of the instructions): velocities() stays an
  // independent computation of the numbers heightsAndVelocities() gets from
  // its kept sin and cos, and the tests compare the two bit for bit.
  GerstnerElevationsAndVelocities(components, settings, u_m, v_m, w_m, count, t_s, nullptr, out,
                                  nullptr, fallback);
}

void GerstnerHeightsAndVelocities(std::span<const WaveComponent> components,
                                  const GerstnerSettings& settings, const btScalar* u_m,
                                  const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                  btScalar t_s, btScalar* height_out_m, WaterVelocity* velocity_out,
                                  PointFallback fallback) {
  LanePhases phases;
  GerstnerElevationsAndVelocities(components, settings, u_m, v_m, w_m, count, t_s, height_out_m,
                                  velocity_out, &phases, fallback);
}

}  // namespace
}  // namespace keel::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::detail {

// The table of each function's versions, one per instruction set compiled
// above; HWY_DYNAMIC_DISPATCH calls the best one the CPU supports.
HWY_EXPORT(SineSumHeights);
HWY_EXPORT(SineSumVelocities);
HWY_EXPORT(GerstnerHeights);
HWY_EXPORT(GerstnerVelocities);
HWY_EXPORT(SineSumHeightsAndVelocities);
HWY_EXPORT(GerstnerHeightsAndVelocities);

void sineSumHeights(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                    const btScalar* u_m, const btScalar* v_m, std::size_t count, btScalar t_s,
                    btScalar* out_m, PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(SineSumHeights)(components, settings, u_m, v_m, count, t_s, out_m, fallback);
}

void sineSumVelocities(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                       const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                       std::size_t count, btScalar t_s, WaterVelocity* out,
                       PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(SineSumVelocities)(components, settings, u_m, v_m, w_m, count, t_s, out,
                                          fallback);
}

void gerstnerHeights(std::span<const WaveComponent> components, const GerstnerSettings& settings,
                     const btScalar* u_m, const btScalar* v_m, std::size_t count, btScalar t_s,
                     btScalar* out_m, PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(GerstnerHeights)(components, settings, u_m, v_m, count, t_s, out_m,
                                        fallback);
}

void gerstnerVelocities(std::span<const WaveComponent> components, const GerstnerSettings& settings,
                        const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                        std::size_t count, btScalar t_s, WaterVelocity* out,
                        PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(GerstnerVelocities)(components, settings, u_m, v_m, w_m, count, t_s, out,
                                           fallback);
}

void sineSumHeightsAndVelocities(std::span<const WaveComponent> components,
                                 const WaveFieldSettings& settings, const btScalar* u_m,
                                 const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                 btScalar t_s, btScalar* height_out_m, WaterVelocity* velocity_out,
                                 PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(SineSumHeightsAndVelocities)(components, settings, u_m, v_m, w_m, count,
                                                    t_s, height_out_m, velocity_out, fallback);
}

void gerstnerHeightsAndVelocities(std::span<const WaveComponent> components,
                                  const GerstnerSettings& settings, const btScalar* u_m,
                                  const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                  btScalar t_s, btScalar* height_out_m, WaterVelocity* velocity_out,
                                  PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(GerstnerHeightsAndVelocities)(components, settings, u_m, v_m, w_m, count,
                                                     t_s, height_out_m, velocity_out, fallback);
}

}  // namespace keel::detail
#endif  // HWY_ONCE

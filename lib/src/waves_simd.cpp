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
  /// Component i's constants, kept or made into `scratch`: by reference, as
  /// the Newton solve's loops read them (a copy of the struct per component
  /// and evaluation costs about as many instructions as the sums).
  [[nodiscard]] const Term& at(std::size_t i, Term& scratch) const {
    if (i < kKeptComponents) return kept_[i];
    scratch = make_(components_[i]);
    return scratch;
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

  /// Stores component i's sin and cos (i < kKeptComponents).
  void store(D d, std::size_t i, V sinTheta, V cosTheta) {
    hn::Store(sinTheta, d, sine + i * kLanes);
    hn::Store(cosTheta, d, cosine + i * kLanes);
  }
  /// Component i's sin and cos (i < kKeptComponents).
  [[nodiscard]] SinCos load(D d, std::size_t i) const {
    return {hn::Load(d, sine + i * kLanes), hn::Load(d, cosine + i * kLanes)};
  }
  /// Takes the first `count` components' sin and cos from `other` in the
  /// lanes of `m`.
  void takeIn(D d, M m, const LanePhases& other, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      const SinCos mine = load(d, i), theirs = other.load(d, i);
      store(d, i, hn::IfThenElse(m, theirs.sine, mine.sine),
            hn::IfThenElse(m, theirs.cosine, mine.cosine));
    }
  }
};

/// Component i's sin and cos at (x, y): kept in `phases`, or computed when
/// i is not kept.
template <class Term>
[[nodiscard]] SinCos sinCos(D d, const LanePhases& phases, std::size_t i, const Term& c, V x, V y) {
  if (i < kKeptComponents) return phases.load(d, i);
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

/// Runs `batch(begin, x, y)` for each batch of kLanes points from `begin`,
/// (x, y) the points in the frame drifting with the current [m]: the whole
/// field drifts with it, so it is evaluated at x - current t.
template <class Batch>
void forEachBatch(D d, const btScalar* u_m, const btScalar* v_m, std::size_t count,
                  const UniformCurrent& current, double t, Batch batch) {
  const V driftEast_m = hn::Set(d, current.east_mps * t);
  const V driftNorth_m = hn::Set(d, current.north_mps * t);
  for (std::size_t begin = 0; begin < count; begin += kLanes)
    batch(begin, hn::Sub(loadPadded(d, u_m, begin, count), driftEast_m),
          hn::Sub(loadPadded(d, v_m, begin, count), driftNorth_m));
}

/// Calls `store(j)` for each lane j of the batch starting at point `begin`
/// whose lane of `ok` is set, and hands every other point to `fallback`.
template <class Store>
void finishLanes(D d, M ok, std::size_t begin, std::size_t count, Store store,
                 PointFallback fallback) {
  const LaneFlags flags(d, ok);
  for (std::size_t j = 0; j < kLanes && begin + j < count; ++j) {
    if (flags.set[j]) {
      store(j);
    } else {
      fallback(begin + j);
    }
  }
}

/// The velocity batches' last step. Linear deep-water orbital velocity
/// (Dean & Dalrymple 1991, ch. 3), summed with the scalar code's operations:
/// a omega e^{k z} per component, `horizontal(c, a omega e^{k z})` cos theta
/// along d (Q times it for Gerstner waves) and sin theta up, from the
/// phases' sin and cos at (x, y), plus the current. Stored with the height
/// `eta` (when `height_out_m` is not null) in the lanes of `ok`; the other
/// points go to `fallback`.
template <class Table, class Horizontal>
void storeVelocities(D d, const Table& terms, const LanePhases& phases, V x, V y, V eta, V z,
                     Horizontal horizontal, const UniformCurrent& current, M ok, std::size_t begin,
                     std::size_t count, btScalar* height_out_m, WaterVelocity* velocity_out,
                     PointFallback fallback) {
  V east = hn::Zero(d), north = hn::Zero(d), up = hn::Zero(d);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const auto c = terms[i];
    const SinCos sc = sinCos(d, phases, i, c, x, y);
    const V orbital_mps =
        hn::Mul(hn::Set(d, c.speed_mps), hn::Exp(d, hn::Mul(hn::Set(d, c.wavenumber_radpm), z)));
    const V along_mps = hn::Mul(horizontal(c, orbital_mps), sc.cosine);
    east = hn::Add(east, hn::Mul(along_mps, hn::Set(d, c.directionEast)));
    north = hn::Add(north, hn::Mul(along_mps, hn::Set(d, c.directionNorth)));
    up = hn::Add(up, hn::Mul(orbital_mps, sc.sine));
  }
  const Lanes height(d, eta);
  const Lanes e(d, hn::Add(east, hn::Set(d, current.east_mps)));
  const Lanes n(d, hn::Add(north, hn::Set(d, current.north_mps)));
  const Lanes u(d, up);
  const auto store = [&](std::size_t j) {
    if (height_out_m != nullptr) height_out_m[begin + j] = static_cast<btScalar>(height.values[j]);
    velocity_out[begin + j] = {static_cast<btScalar>(e.values[j]),
                               static_cast<btScalar>(n.values[j]),
                               static_cast<btScalar>(u.values[j])};
  };
  finishLanes(d, ok, begin, count, store, fallback);
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
  forEachBatch(d, u_m, v_m, count, settings.current, t, [&](std::size_t begin, V x, V y) {
    const Lanes eta(d, sineSumElevation(d, terms, settings.meanLevel_m, x, y));
    finishLanes(
        d, inPhaseRange(d, x, y, terms.positionLimit_m()), begin, count,
        [&](std::size_t j) { out_m[begin + j] = static_cast<btScalar>(eta.values[j]); }, fallback);
  });
}

/// sineSumHeightsAndVelocities (SineSumSurface::velocities and
/// heightsAndVelocities): the elevation and the velocity of every point from
/// the same phases, the heights stored when
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
  // sin and cos of the kept components' phases, from the elevation to the
  // velocity; the phase and its Sin are computed once.
  LanePhases phases;
  forEachBatch(d, u_m, v_m, count, settings.current, t, [&](std::size_t begin, V x, V y) {
    V eta = hn::Set(d, settings.meanLevel_m);
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const SineTerm c = terms[i];
      const V theta = phase(d, c, x, y);
      const V cosine = hn::Cos(d, theta);
      if (i < kKeptComponents) phases.store(d, i, hn::Sin(d, theta), cosine);
      eta = hn::Add(eta, hn::Mul(hn::Set(d, c.amplitude_m), cosine));
    }
    const V z = depthBelowSurface(d, loadPadded(d, w_m, begin, count), eta);
    const auto horizontal = [](const SineTerm&, V orbital_mps) { return orbital_mps; };
    storeVelocities(d, terms, phases, x, y, eta, z, horizontal, settings.current,
                    inPhaseRange(d, x, y, terms.positionLimit_m()), begin, count, height_out_m,
                    velocity_out, fallback);
  });
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

/// F = x0 - x and J = I: the sums at (x0, y0) before any component.
[[nodiscard]] Sums startSums(D d, V x0, V y0, V x, V y) {
  return {hn::Sub(x0, x), hn::Sub(y0, y), hn::Set(d, 1.0),
          hn::Zero(d),    hn::Set(d, 1.0), hn::Zero(d)};
}

/// Adds one component, of phase sin `sine` and cos `cosine` at the trial
/// rest positions, to the sums (gerstner.cpp's addComponent).
void addComponent(D d, Sums& s, const GerstnerTerm& c, V sine, V cosine) {
  s.residualEast_m = hn::NegMulAdd(hn::Set(d, c.horizontalEast_m), sine, s.residualEast_m);
  s.residualNorth_m = hn::NegMulAdd(hn::Set(d, c.horizontalNorth_m), sine, s.residualNorth_m);
  s.jacobianEE = hn::NegMulAdd(hn::Set(d, c.curvatureEE), cosine, s.jacobianEE);
  s.jacobianEN = hn::NegMulAdd(hn::Set(d, c.curvatureEN), cosine, s.jacobianEN);
  s.jacobianNN = hn::NegMulAdd(hn::Set(d, c.curvatureNN), cosine, s.jacobianNN);
  s.elevation_m = hn::MulAdd(hn::Set(d, c.amplitude_m), cosine, s.elevation_m);
}

/// The parametric surface at trial rest positions (x0, y0) for target points
/// (x, y) (gerstner.cpp's evaluate): F = x0 - x - sum Q a d sin(theta),
/// J = I - sum Q a k cos(theta) d d^T, elevation sum a cos(theta), every
/// phase's sin and cos from Sin and Cos; the kept components' go to `phases`.
template <class Table>
[[nodiscard]] Sums evaluate(D d, const Table& terms, V x0, V y0, V x, V y, LanePhases& phases) {
  Sums s = startSums(d, x0, y0, x, y);
  GerstnerTerm scratch;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const GerstnerTerm& c = terms.at(i, scratch);
    const V theta = phase(d, c, x0, y0);
    const V sine = hn::Sin(d, theta), cosine = hn::Cos(d, theta);
    if (i < kKeptComponents) phases.store(d, i, sine, cosine);
    addComponent(d, s, c, sine, cosine);
  }
  return s;
}

/// A Newton step moves each phase by delta = k d.(step) [rad]. Up to this
/// bound the solve moves each phase's sin and cos by the angle-addition
/// identity with sinCosOfStep; beyond it, it calls Sin and Cos. The first
/// step from x0 = x moves a phase by up to about k Q sum a (measured: 0.13
/// rad on the fleet benchmark's sea, 0.43 on a JONSWAP storm of Hs 8 m at
/// 0.9 of the fold limit), the later ones by far less: 0.5 rad takes them all
/// there, where 1e-2 (the scalar solve's bound) would miss most first steps.
constexpr double kPhaseStepBound_rad = 0.5;

/// sin delta and cos delta for |delta| <= kPhaseStepBound_rad, from their
/// Taylor series through delta^15 and delta^16 in Horner form on delta^2.
/// The first omitted terms, delta^17 / 17! and delta^18 / 18!, are below
/// 5e-20 of sin delta and 1e-21 of cos delta there, against double's
/// rounding of 1.1e-16 of each: the results are within about an ulp (the
/// Horner steps' roundings), as Sin and Cos are within 3. gerstner.cpp's
/// scalar solve takes the same identity with a shorter series up to 1e-2 rad.
[[nodiscard]] SinCos sinCosOfStep(D d, V delta) {
  const V d2 = hn::Mul(delta, delta);
  // sin delta = delta + delta^3 (-1/3! + delta^2 (1/5! - ...)), 1/n! rounded
  // to double: each changes its term by 1e-16 of itself.
  V sinSeries = hn::MulAdd(d2, hn::Set(d, -1.0 / 1307674368000.0), hn::Set(d, 1.0 / 6227020800.0));
  sinSeries = hn::MulAdd(d2, sinSeries, hn::Set(d, -1.0 / 39916800.0));
  sinSeries = hn::MulAdd(d2, sinSeries, hn::Set(d, 1.0 / 362880.0));
  sinSeries = hn::MulAdd(d2, sinSeries, hn::Set(d, -1.0 / 5040.0));
  sinSeries = hn::MulAdd(d2, sinSeries, hn::Set(d, 1.0 / 120.0));
  sinSeries = hn::MulAdd(d2, sinSeries, hn::Set(d, -1.0 / 6.0));
  // cos delta = 1 + delta^2 (-1/2! + delta^2 (1/4! - ...)).
  V cosSeries = hn::MulAdd(d2, hn::Set(d, 1.0 / 20922789888000.0), hn::Set(d, -1.0 / 87178291200.0));
  cosSeries = hn::MulAdd(d2, cosSeries, hn::Set(d, 1.0 / 479001600.0));
  cosSeries = hn::MulAdd(d2, cosSeries, hn::Set(d, -1.0 / 3628800.0));
  cosSeries = hn::MulAdd(d2, cosSeries, hn::Set(d, 1.0 / 40320.0));
  cosSeries = hn::MulAdd(d2, cosSeries, hn::Set(d, -1.0 / 720.0));
  cosSeries = hn::MulAdd(d2, cosSeries, hn::Set(d, 1.0 / 24.0));
  cosSeries = hn::MulAdd(d2, cosSeries, hn::Set(d, -0.5));
  return {hn::MulAdd(hn::Mul(delta, d2), sinSeries, delta),
          hn::MulAdd(d2, cosSeries, hn::Set(d, 1.0))};
}

/// The sums at candidates (xc, yc) = the rest positions of `rest` + (dx, dy)
/// (gerstner.cpp's evaluateNear), the kept components' sin and cos stored in
/// `candidate`. A kept component's phase moves by delta = k d.(dx, dy); in
/// the lanes where |delta| <= kPhaseStepBound_rad its sin and cos come from
/// the rest position's by sin(theta + delta) = sin theta cos delta +
/// cos theta sin delta, cos(theta + delta) = cos theta cos delta -
/// sin theta sin delta; in the others from Sin and Cos of the candidate's
/// phase. Each lane's numbers depend on its own delta only, whatever its
/// neighbours'; either way is skipped when no lane of `searching` takes it
/// (the other lanes' results are not used). The components not kept call
/// Sin and Cos.
template <class Table>
[[nodiscard]] Sums evaluateNear(D d, const Table& terms, V xc, V yc, V dx, V dy, V x, V y,
                                M searching, const LanePhases& rest, LanePhases& candidate) {
  Sums s = startSums(d, xc, yc, x, y);
  const V bound_rad = hn::Set(d, kPhaseStepBound_rad);
  GerstnerTerm scratch;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const GerstnerTerm& c = terms.at(i, scratch);
    if (i >= kKeptComponents) {
      const V theta = phase(d, c, xc, yc);
      addComponent(d, s, c, hn::Sin(d, theta), hn::Cos(d, theta));
      continue;
    }
    // gerstner.cpp's delta, with its operations.
    const V delta = hn::Mul(hn::Set(d, c.wavenumber_radpm),
                            hn::Add(hn::Mul(hn::Set(d, c.directionEast), dx),
                                    hn::Mul(hn::Set(d, c.directionNorth), dy)));
    const M small = hn::Le(hn::Abs(delta), bound_rad);  // false for NaN
    V sine = hn::Zero(d), cosine = hn::Zero(d);
    if (!hn::AllFalse(d, hn::And(small, searching))) {
      const SinCos from = rest.load(d, i);
      const SinCos step = sinCosOfStep(d, delta);
      sine = hn::MulAdd(from.cosine, step.sine, hn::Mul(from.sine, step.cosine));
      cosine = hn::NegMulAdd(from.sine, step.sine, hn::Mul(from.cosine, step.cosine));
    }
    if (!hn::AllFalse(d, hn::AndNot(small, searching))) {
      const V theta = phase(d, c, xc, yc);
      sine = hn::IfThenElse(small, sine, hn::Sin(d, theta));
      cosine = hn::IfThenElse(small, cosine, hn::Cos(d, theta));
    }
    candidate.store(d, i, sine, cosine);
    addComponent(d, s, c, sine, cosine);
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
/// `rest` holds the sin and cos of the kept components' phases at each
/// lane's current rest position: from Sin and Cos at x0 = x, then moved with
/// each accepted step (evaluateNear; a candidate's go to `candidate`, and to
/// `rest` in the lanes that accept it). On return they are those at the
/// lanes' rest points, for the velocity.
template <class Table>
[[nodiscard]] RestPoints solveRestPoints(D d, const Table& terms, V x, V y, LanePhases& rest,
                                         LanePhases& candidate) {
  const V tolerance2 = hn::Set(d, kGerstnerResidualTolerance_m * kGerstnerResidualTolerance_m);
  const double limit_m = terms.positionLimit_m();
  const std::size_t kept = std::min(terms.size(), kKeptComponents);
  V x0 = x, y0 = y;
  Sums s = evaluate(d, terms, x0, y0, x, y, rest);
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
      // The move as the scalar solve takes it: the difference of the
      // positions, not fraction * step.
      const Sums trial = evaluateNear(d, terms, xc, yc, hn::Sub(xc, x0), hn::Sub(yc, y0), x, y,
                                      searching, rest, candidate);
      const V trialR2 = trial.residualSquared_m2();
      const M improved = hn::And(searching, hn::Lt(trialR2, r2));
      if (!hn::AllFalse(d, improved)) rest.takeIn(d, improved, candidate, kept);
      x0 = hn::IfThenElse(improved, xc, x0);
      y0 = hn::IfThenElse(improved, yc, y0);
      s = select(improved, trial, s);
      r2 = hn::IfThenElse(improved, trialR2, r2);
      searching = hn::AndNot(improved, searching);
    }
    // Lanes no step improved are at the resolution of double: they stop, as
    // in the scalar solve, and go to it unless they have converged.
    stopped = hn::Or(hn::Or(stopped, searching), hn::Or(failed, hn::Le(r2, tolerance2)));
  }
  return {x0, y0, s.elevation_m, hn::AndNot(failed, hn::Le(r2, tolerance2))};
}

/// gerstnerHeightsAndVelocities (GerstnerSurface::heights, velocities and
/// heightsAndVelocities): one Newton solve per point for its height and its velocity, the heights
/// stored when `height_out_m` is not null, the velocities when
/// `velocity_out` is not null (`w_m` is then read). The velocity takes the
/// sin and cos of the kept components' phases at each rest point from the
/// solve (they are not Sin and Cos of the rest point's phase bit for bit,
/// having been moved by the angle-addition identity, so velocities() takes
/// them too and gives heightsAndVelocities()' bits).
void GerstnerElevationsAndVelocities(std::span<const WaveComponent> components,
                                     const GerstnerSettings& settings, const btScalar* u_m,
                                     const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                     btScalar t_s, btScalar* height_out_m,
                                     WaterVelocity* velocity_out, PointFallback fallback) {
  const D d;
  const double t = t_s;
  const auto make = [&settings, t](const WaveComponent& c) {
    return gerstnerTerm(c, settings.steepness, t);
  };
  const Terms<GerstnerTerm, decltype(make)> terms(components, make);
  LanePhases rest, candidate;  // the solve's sin and cos
  forEachBatch(d, u_m, v_m, count, settings.current, t, [&](std::size_t begin, V x, V y) {
    const RestPoints p = solveRestPoints(d, terms, x, y, rest, candidate);
    const V eta = hn::Add(hn::Set(d, settings.meanLevel_m), p.elevation_m);
    if (velocity_out == nullptr) {
      const Lanes height(d, eta);
      finishLanes(
          d, p.converged, begin, count,
          [&](std::size_t j) { height_out_m[begin + j] = static_cast<btScalar>(height.values[j]); },
          fallback);
      return;
    }
    const V z = depthBelowSurface(d, loadPadded(d, w_m, begin, count), eta);
    // d/dt of x = x0 - sum d Q a sin(theta), eta = sum a cos(theta) at fixed
    // x0 (d theta/dt = -omega): the orbital velocity with Q along d.
    const auto horizontal = [d](const GerstnerTerm& c, V orbital_mps) {
      return hn::Mul(hn::Set(d, c.steepness), orbital_mps);
    };
    storeVelocities(d, terms, rest, p.x0_m, p.y0_m, eta, z, horizontal, settings.current,
                    p.converged, begin, count, height_out_m, velocity_out, fallback);
  });
}

}  // namespace
}  // namespace keel::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::detail {

// The table of each function's versions, one per instruction set compiled
// above; HWY_DYNAMIC_DISPATCH calls the best one the CPU supports.
HWY_EXPORT(SineSumHeights);
HWY_EXPORT(SineSumElevationsAndVelocities);
HWY_EXPORT(GerstnerElevationsAndVelocities);

void sineSumHeights(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                    const btScalar* u_m, const btScalar* v_m, std::size_t count, btScalar t_s,
                    btScalar* out_m, PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(SineSumHeights)(components, settings, u_m, v_m, count, t_s, out_m, fallback);
}

void sineSumHeightsAndVelocities(std::span<const WaveComponent> components,
                                 const WaveFieldSettings& settings, const btScalar* u_m,
                                 const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                 btScalar t_s, btScalar* height_out_m, WaterVelocity* velocity_out,
                                 PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(SineSumElevationsAndVelocities)(components, settings, u_m, v_m, w_m, count,
                                                       t_s, height_out_m, velocity_out, fallback);
}

void gerstnerHeightsAndVelocities(std::span<const WaveComponent> components,
                                  const GerstnerSettings& settings, const btScalar* u_m,
                                  const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                  btScalar t_s, btScalar* height_out_m, WaterVelocity* velocity_out,
                                  PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(GerstnerElevationsAndVelocities)(components, settings, u_m, v_m, w_m, count,
                                                        t_s, height_out_m, velocity_out, fallback);
}

}  // namespace keel::detail
#endif  // HWY_ONCE

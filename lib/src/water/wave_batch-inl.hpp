// Internal to Keel: what the batch wave queries' Highway code shares
// (sine_sum_simd.cpp, gerstner_simd.cpp): one point per lane of a vector of
// doubles, the components' per-call constants, the sin and cos of their
// phases kept per lane, batches padded to whole vectors, and the orbital
// velocity. docs/waves.md, "Batches: SIMD across points".
//
// Included once per instruction set by each SIMD source, after
// hwy/foreach_target.h (Highway's per-target include guard below), and
// after water/fp_contract_off.hpp, which the source includes first.

#include <hwy/highway.h>

#include "math/det_math-inl.hpp"
#include "water/wave_detail.hpp"
#include "water/waves_simd.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <new>
#include <numbers>
#include <span>

#if defined(KEEL_WATER_WAVE_BATCH_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_WATER_WAVE_BATCH_INL_HPP_
#undef KEEL_WATER_WAVE_BATCH_INL_HPP_
#else
#define KEEL_WATER_WAVE_BATCH_INL_HPP_
#endif

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using M = hn::Mask<D>;
inline constexpr std::size_t kLanes = hn::MaxLanes(D());

/// A point whose phases could pass this [rad] is handed to the scalar code,
/// which takes its phases unreduced: such a point gets the single-point
/// query's bits (the vector code's sin and cos would stay accurate far
/// beyond, to det::kSinCosAccurate_rad).
inline constexpr double kPhaseLimit_rad = 39000;
/// `phi - omega t` beyond this [rad] is reduced modulo 2 pi (below, it is
/// used as it is, as the scalar code does).
inline constexpr double kReducePhaseBeyond_rad = 1024;

/// Components whose per-call constants are kept on the stack; the others'
/// are recomputed where used (the same numbers, more slowly).
inline constexpr std::size_t kKeptComponents = 64;

/// The part of a component's phase that does not depend on position in
/// the batch's frame, `phi - omega t - k d.current t` [rad]: the field drifts
/// with the current (theta = k d.(x - current t) + phi - omega t), and the
/// drift's phase joins here, in double, so that the lanes take the points
/// where they are (x - current t would leave sin's range within days of a
/// clock: 1e5 m at 0.5 m/s after 2.3 days). It is the sine sum's
/// single-point value while it stays below kReducePhaseBeyond_rad, so that
/// phases match the single-point queries' bits over the first minutes; then
/// reduced to [-pi, pi], so that the time never takes a phase past
/// kPhaseLimit_rad (omega t passes 39000 rad within hours). The remainder is exact;
/// the double 2 pi differs from 2 pi by 2.4e-16, which shifts the phase by
/// |phi - omega t| * 4e-17 rad, less than the rounding of phi - omega t
/// itself.
[[nodiscard]] inline double phaseAtOriginForSin_rad(const WaveComponent& c, double t_s, const UniformCurrent& current) {
  const double phase0_rad = phaseAtOrigin_rad(c, t_s, current);
  return std::abs(phase0_rad) <= kReducePhaseBeyond_rad ? phase0_rad : std::remainder(phase0_rad, 2 * std::numbers::pi);
}

/// One component's constants for a batch at time t, those of its phase and
/// its orbital velocity: what sums of sines need, and Gerstner waves start
/// with.
struct WaveTerm {
  double wavenumber_radpm;
  double directionEast, directionNorth;
  double phase0_rad;  // phi - omega t - k d.current t, reduced when large
  double amplitude_m;
  double speed_mps;  // a omega: orbital speed at the surface
  double angularFrequency_radps;
};

[[nodiscard]] inline WaveTerm waveTerm(const WaveComponent& c, double t_s, const UniformCurrent& current) {
  return {c.wavenumber_radpm,      c.directionEast,
          c.directionNorth,        phaseAtOriginForSin_rad(c, t_s, current),
          c.amplitude_m,           c.amplitude_m * c.angularFrequency_radps,
          c.angularFrequency_radps};
}

/// The components' constants for one batch: the first kKeptComponents on
/// the stack, the rest made again at each use. `make(component)` builds one.
template <class Term, class Make>
class Terms {
 public:
  Terms(std::span<const WaveComponent> components, Make make) : components_(components), make_(make) {
    double maxWavenumber_radpm = 0, maxPhase0_rad = 0;
    for (std::size_t i = 0; i < components.size(); ++i) {
      // A kept term is made in its slot (placement new of the prvalue: no
      // copy of it through the stack, whose wide loads of narrow stores
      // stalled store forwarding and cost as much as the solve's first sums).
      const Term* term = nullptr;
      Term other;
      if (i < kKeptComponents) {
        term = ::new (static_cast<void*>(&kept_[i])) Term(make(components[i]));
      } else {
        other = make(components[i]);
        term = &other;
      }
      maxWavenumber_radpm = std::max(maxWavenumber_radpm, term->wavenumber_radpm);
      maxPhase0_rad = std::max(maxPhase0_rad, std::abs(term->phase0_rad));
    }
    // |k d.x + phase0| <= k (|x| + |y|) + |phase0|, and |phase0| <= 1024.
    positionLimit_m_ = maxWavenumber_radpm > 0 ? (kPhaseLimit_rad - maxPhase0_rad) / maxWavenumber_radpm
                                               : std::numeric_limits<double>::infinity();
  }

  [[nodiscard]] std::size_t size() const { return components_.size(); }
  [[nodiscard]] Term operator[](std::size_t i) const { return i < kKeptComponents ? kept_[i] : make_(components_[i]); }
  /// Component i's constants, kept or made into `scratch`: by reference, as
  /// the Newton solve's loops read them (a copy of the struct per component
  /// and evaluation costs about as many instructions as the sums).
  [[nodiscard]] const Term& at(std::size_t i, Term& scratch) const {
    if (i < kKeptComponents) return kept_[i];
    scratch = make_(components_[i]);
    return scratch;
  }
  /// Points with |x| + |y| up to this [m] keep every phase within kPhaseLimit_rad.
  [[nodiscard]] double positionLimit_m() const { return positionLimit_m_; }

 private:
  std::span<const WaveComponent> components_;
  Make make_;
  // Not zeroed: the constructor writes the first size() before any read.
  std::array<Term, kKeptComponents> kept_;
  double positionLimit_m_ = 0;
};

/// Lanes whose point (x, y) [m] keeps every phase within kPhaseLimit_rad.
[[nodiscard]] inline M inPhaseRange(D d, V x, V y, double positionLimit_m) {
  return hn::Le(hn::Add(hn::Abs(x), hn::Abs(y)), hn::Set(d, positionLimit_m));
}

/// Phase theta = k d.(x, y) + phase0 of one component in every lane [rad],
/// with the operations of detail::phase_rad.
template <class Term>
[[nodiscard]] V phase(D d, const Term& c, V x, V y) {
  const V along_m = hn::Add(hn::Mul(hn::Set(d, c.directionEast), x), hn::Mul(hn::Set(d, c.directionNorth), y));
  return hn::Add(hn::Mul(hn::Set(d, c.wavenumber_radpm), along_m), hn::Set(d, c.phase0_rad));
}

/// sin and cos of a phase in every lane.
using SinCos = det_simd::SinCosV<V>;

/// sin and cos of `theta` [rad] in every lane, the bits of det::sinCos.
[[nodiscard]] inline SinCos sinCos(D d, V theta) { return det_simd::SinCos(d, theta); }

/// sin and cos of the first kKeptComponents components' phases, kLanes
/// lanes per component, kept from where a batch computes them to where it
/// uses them again; the other components' are computed afresh (the same
/// numbers: same phase, same sinCos).
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
      store(d, i, hn::IfThenElse(m, theirs.sine, mine.sine), hn::IfThenElse(m, theirs.cosine, mine.cosine));
    }
  }
};

/// Component i's sin and cos at (x, y): kept in `phases`, or computed when
/// i is not kept.
template <class Term>
[[nodiscard]] SinCos sinCos(D d, const LanePhases& phases, std::size_t i, const Term& c, V x, V y) {
  if (i < kKeptComponents) return phases.load(d, i);
  return sinCos(d, phase(d, c, x, y));
}

/// Points [begin, begin + kLanes) of `values` as doubles, the batch's tail
/// padded with copies of its last point: every point, the last ones too,
/// goes through the same vector code.
[[nodiscard]] inline V loadPadded(D d, const btScalar* values, std::size_t begin, std::size_t count) {
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
[[nodiscard]] inline V depthBelowSurface(D d, V w, V eta) {
  const V depth = hn::Sub(w, eta);
  return hn::IfThenElse(hn::Gt(depth, hn::Zero(d)), hn::Zero(d), depth);
}

/// Runs `vector(begin, x, y)` for each vector of kLanes points of `batch`
/// from point `begin`, (x, y) the points [m] (the current's drift is in each
/// term's phase0).
template <class Vector>
void forEachVector(D d, const PointBatch& batch, Vector vector) {
  for (std::size_t begin = 0; begin < batch.count; begin += kLanes)
    vector(begin, loadPadded(d, batch.u_m, begin, batch.count), loadPadded(d, batch.v_m, begin, batch.count));
}

/// Calls `store(j)` for each lane j of the vector starting at point `begin`
/// whose lane of `ok` is set, and hands every other point to `fallback`.
template <class Store>
void finishLanes(D d, M ok, std::size_t begin, std::size_t count, Store store, PointFallback fallback) {
  const LaneFlags flags(d, ok);
  for (std::size_t j = 0; j < kLanes && begin + j < count; ++j) {
    if (flags.set[j]) {
      store(j);
    } else {
      fallback(begin + j);
    }
  }
}

/// Stores the heights `eta` [m] of the vector starting at point `begin` in
/// the lanes of `ok`; the other points go to `fallback`.
inline void storeHeights(D d, V eta, M ok, std::size_t begin, const PointBatch& batch, PointFallback fallback) {
  const Lanes height(d, eta);
  finishLanes(
      d, ok, begin, batch.count,
      [&](std::size_t j) { batch.height_out_m[begin + j] = static_cast<btScalar>(height.values[j]); }, fallback);
}

/// The orbital velocity at depth z below the surface [m] (<= 0), without
/// the current. Linear deep-water orbital velocity (Dean & Dalrymple 1991,
/// ch. 3), summed with the scalar code's operations: a omega e^{k z} per
/// component, `horizontal(c, a omega e^{k z})` cos theta along d (Q times it
/// for Gerstner waves) and sin theta up, from the phases' sin and cos at
/// (x, y).
struct Orbital {
  V east, north, up;
};

/// `decay(i, c)` is component i's e^{k z} in every lane.
template <class Table, class Horizontal, class Decay>
[[nodiscard]] Orbital orbitalVelocity(D d, const Table& terms, const LanePhases& phases, V x, V y, Decay decay,
                                      Horizontal horizontal) {
  V east = hn::Zero(d), north = hn::Zero(d), up = hn::Zero(d);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const auto c = terms[i];
    const SinCos sc = sinCos(d, phases, i, c, x, y);
    const V orbital_mps = hn::Mul(hn::Set(d, c.speed_mps), decay(i, c));
    const V along_mps = hn::Mul(horizontal(c, orbital_mps), sc.cosine);
    east = hn::Add(east, hn::Mul(along_mps, hn::Set(d, c.directionEast)));
    north = hn::Add(north, hn::Mul(along_mps, hn::Set(d, c.directionNorth)));
    up = hn::Add(up, hn::Mul(orbital_mps, sc.sine));
  }
  return {east, north, up};
}

/// One depth's velocities with the current, lane by lane, for storing.
struct VelocityLanes {
  VelocityLanes(D d, const Orbital& o, const UniformCurrent& current)
      : east(d, hn::Add(o.east, hn::Set(d, current.east_mps))),
        north(d, hn::Add(o.north, hn::Set(d, current.north_mps))),
        up(d, o.up) {}
  [[nodiscard]] WaterVelocity operator[](std::size_t j) const {
    return {static_cast<btScalar>(east.values[j]), static_cast<btScalar>(north.values[j]),
            static_cast<btScalar>(up.values[j])};
  }
  Lanes east, north, up;
};

/// The velocity queries' last step: orbitalVelocity plus the current at
/// each point's depth below the surface `eta` [m], from `batch.w_m`, or at
/// each of `batch.depths_m` (a grid's nodes). Stored with the height `eta`
/// (when `batch.height_out_m` is not null) in the lanes of `ok`; the other
/// points go to `fallback`.
template <class Table, class Horizontal>
void storeVelocities(D d, const Table& terms, const LanePhases& phases, V x, V y, V eta, Horizontal horizontal,
                     const UniformCurrent& current, M ok, std::size_t begin, const PointBatch& batch,
                     PointFallback fallback) {
  const Lanes height(d, eta);
  const std::size_t levels = batch.depths_m.size();
  if (levels == 0) {
    const V z = depthBelowSurface(d, loadPadded(d, batch.w_m, begin, batch.count), eta);
    const auto decay = [d, z](std::size_t, const auto& c) {
      return det_simd::Exp(d, hn::Mul(hn::Set(d, c.wavenumber_radpm), z));
    };
    const VelocityLanes v(d, orbitalVelocity(d, terms, phases, x, y, decay, horizontal), current);
    const auto store = [&](std::size_t j) {
      if (batch.height_out_m != nullptr) batch.height_out_m[begin + j] = static_cast<btScalar>(height.values[j]);
      batch.velocity_out[begin + j] = v[j];
    };
    finishLanes(d, ok, begin, batch.count, store, fallback);
    return;
  }
  const LaneFlags converged(d, ok);
  for (std::size_t m = 0; m < levels; ++m) {
    const auto decay = [d, &batch, levels, m](std::size_t i, const auto&) {
      return hn::Set(d, batch.depthDecay[i * levels + m]);
    };
    const VelocityLanes v(d, orbitalVelocity(d, terms, phases, x, y, decay, horizontal), current);
    for (std::size_t j = 0; j < kLanes && begin + j < batch.count; ++j)
      if (converged.set[j]) batch.velocity_out[(begin + j) * levels + m] = v[j];
  }
  // The heights, and every result of the other points from `fallback`.
  const auto store = [&](std::size_t j) {
    if (batch.height_out_m != nullptr) batch.height_out_m[begin + j] = static_cast<btScalar>(height.values[j]);
  };
  finishLanes(d, ok, begin, batch.count, store, fallback);
}

/// The pressure queries' last step: wave_detail.hpp's airyPressureHead_m
/// in every lane, the static head `eta - w` plus `sum a (e^{k z} - 1)
/// cos(theta)`, z the depth below the surface `eta` [m] (0 above it), from
/// the phases' cos at (x, y). Stored in the lanes of `ok`; the other points
/// go to `fallback`.
template <class Table>
void storeHeads(D d, const Table& terms, const LanePhases& phases, V x, V y, V eta, M ok, std::size_t begin,
                const PointBatch& batch, PointFallback fallback) {
  const V w = loadPadded(d, batch.w_m, begin, batch.count);
  const V z = depthBelowSurface(d, w, eta);
  V dynamic_m = hn::Zero(d);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const auto c = terms[i];
    const SinCos sc = sinCos(d, phases, i, c, x, y);
    const V decay = det_simd::Expm1(d, hn::Mul(hn::Set(d, c.wavenumber_radpm), z));
    dynamic_m = hn::Add(dynamic_m, hn::Mul(hn::Mul(hn::Set(d, c.amplitude_m), decay), sc.cosine));
  }
  const Lanes head(d, hn::Add(hn::Sub(eta, w), dynamic_m));
  finishLanes(
      d, ok, begin, batch.count,
      [&](std::size_t j) { batch.head_out_m[begin + j] = static_cast<btScalar>(head.values[j]); }, fallback);
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // KEEL_WATER_WAVE_BATCH_INL_HPP_

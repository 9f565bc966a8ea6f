// SineSumSurface's batch queries vectorised across points with Highway: one
// point per lane of a vector of doubles, on the widest instruction set the
// CPU has (SSE4, AVX2 or AVX-512, chosen at run time), with Keel's own
// vector sin, cos and exp (math/det_math-inl.hpp): the same bits on each.
// docs/waves.md, "Batches: SIMD across points".

#include "water/fp_contract_off.hpp"  // first: before any Highway code

// Highway compiles this file once per instruction set: foreach_target.h
// includes it again for each, by this path from lib/src (on the library's
// private include path).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "water/sine_sum_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include "water/wave_batch-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace {

/// The components' constants for a batch at time t [s].
[[nodiscard]] auto sineTerms(std::span<const WaveComponent> components, double t_s, const UniformCurrent& current) {
  const auto make = [t_s, current](const WaveComponent& c) { return waveTerm(c, t_s, current); };
  return Terms<WaveTerm, decltype(make)>(components, make);
}

/// The surface height `h0 + sum a cos(theta)` [m] at (x, y) [m], the
/// current's drift in the terms' phase0, in every lane (waves.cpp's
/// sineSumHeight_m).
template <class Table>
[[nodiscard]] V sineSumHeight(D d, const Table& terms, double meanLevel_m, V x, V y) {
  V eta = hn::Set(d, meanLevel_m);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const WaveTerm c = terms[i];
    eta = hn::Add(eta, hn::Mul(hn::Set(d, c.amplitude_m), sinCos(d, phase(d, c, x, y)).cosine));
  }
  return eta;
}

/// sineSumHeight's operations, term by term (the same bits), keeping the
/// sin (with `kSine`; else the cos in its place) and cos of the first
/// kKeptComponents phases in `phases`.
template <bool kSine, class Table>
[[nodiscard]] V heightKeepingPhases(D d, const Table& terms, double meanLevel_m, V x, V y, LanePhases& phases) {
  V eta = hn::Set(d, meanLevel_m);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const WaveTerm c = terms[i];
    const V theta = phase(d, c, x, y);
    const SinCos sc = sinCos(d, theta);
    if (i < kKeptComponents) phases.store(d, i, kSine ? sc.sine : sc.cosine, sc.cosine);
    eta = hn::Add(eta, hn::Mul(hn::Set(d, c.amplitude_m), sc.cosine));
  }
  return eta;
}

/// sineSumBatch without velocities: the height [m] of every point.
void SineSumHeights(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                    const PointBatch& batch, PointFallback fallback) {
  const D d;
  const auto terms = sineTerms(components, batch.t_s, settings.current);
  forEachVector(d, batch, [&](std::size_t begin, V x, V y) {
    storeHeights(d, sineSumHeight(d, terms, settings.meanLevel_m, x, y), inPhaseRange(d, x, y, terms.positionLimit_m()),
                 begin, batch, fallback);
  });
}

/// sineSumBatch with velocities: the velocity [m/s] of every point, and its
/// height [m] when `batch.height_out_m` is not null, from the same phases.
/// The height is sineSumHeight's, term by term, so its bits are
/// SineSumHeights'.
void SineSumHeightsAndVelocities(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                                 const PointBatch& batch, PointFallback fallback) {
  const D d;
  const auto terms = sineTerms(components, batch.t_s, settings.current);
  // sin and cos of the kept components' phases, from the elevation to the
  // velocity; the phase and its sin are computed once.
  LanePhases phases;
  forEachVector(d, batch, [&](std::size_t begin, V x, V y) {
    const V eta = heightKeepingPhases<true>(d, terms, settings.meanLevel_m, x, y, phases);
    const auto horizontal = [](const WaveTerm&, V orbital_mps) { return orbital_mps; };
    storeVelocities(d, terms, phases, x, y, eta, horizontal, settings.current,
                    inPhaseRange(d, x, y, terms.positionLimit_m()), begin, batch, fallback);
  });
}

/// sineSumBatch's pressure heads [m] (waves.cpp's airyPressureHead_m),
/// from the phases that give the height.
void SineSumPressureHeads(std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                          const PointBatch& batch, PointFallback fallback) {
  const D d;
  const auto terms = sineTerms(components, batch.t_s, settings.current);
  LanePhases phases;
  forEachVector(d, batch, [&](std::size_t begin, V x, V y) {
    // The heads want the cos only: no sin.
    const V eta = heightKeepingPhases<false>(d, terms, settings.meanLevel_m, x, y, phases);
    storeHeads(d, terms, phases, x, y, eta, inPhaseRange(d, x, y, terms.positionLimit_m()), begin, batch, fallback);
  });
}

}  // namespace
}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

// The table of each function's versions, one per instruction set compiled
// above; HWY_DYNAMIC_DISPATCH calls the best one the CPU supports.
HWY_EXPORT(SineSumHeights);
HWY_EXPORT(SineSumHeightsAndVelocities);
HWY_EXPORT(SineSumPressureHeads);

void sineSumBatch(std::span<const WaveComponent> components, const WaveFieldSettings& settings, const PointBatch& batch,
                  PointFallback fallback) {
  if (batch.head_out_m != nullptr) {
    HWY_DYNAMIC_DISPATCH(SineSumPressureHeads)(components, settings, batch, fallback);
  } else if (batch.velocity_out == nullptr) {
    HWY_DYNAMIC_DISPATCH(SineSumHeights)(components, settings, batch, fallback);
  } else {
    HWY_DYNAMIC_DISPATCH(SineSumHeightsAndVelocities)(components, settings, batch, fallback);
  }
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE

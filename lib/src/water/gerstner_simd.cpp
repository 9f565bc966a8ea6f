// GerstnerSurface's batch queries vectorised across points with Highway: each
// lane runs the Newton solve of one point (gerstner.cpp's solveRestPoint),
// on the widest instruction set the CPU has (SSE4, AVX2 or AVX-512, chosen
// at run time), with Keel's own vector sin, cos and exp
// (math/det_math-inl.hpp): the same bits on each.
// docs/waves.md, "Batches: SIMD across points".

#include "water/fp_contract_off.hpp"  // first: before any Highway code

// Highway compiles this file once per instruction set: foreach_target.h
// includes it again for each, by this path from lib/src (on the library's
// private include path).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "water/gerstner_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include "water/wave_batch-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace {

/// One Gerstner component's constants for a batch at time t and steepness Q:
/// its terms in F(x0) = x0 - x - sum Q a d sin(theta), in the Jacobian
/// I - sum Q a k cos(theta) d d^T, and in the particle velocity.
struct GerstnerTerm : WaveTerm {
  double horizontalEast_m, horizontalNorth_m;    // Q a d
  double curvatureEE, curvatureEN, curvatureNN;  // Q a k d d^T
  double steepness;                              // Q
};

[[nodiscard]] GerstnerTerm gerstnerTerm(const WaveComponent& c, double steepness, double t_s,
                                        const UniformCurrent& current) {
  const double horizontal_m = steepness * c.amplitude_m;
  const double curvature = horizontal_m * c.wavenumber_radpm;
  return {waveTerm(c, t_s, current),
          horizontal_m * c.directionEast,
          horizontal_m * c.directionNorth,
          curvature * c.directionEast * c.directionEast,
          curvature * c.directionEast * c.directionNorth,
          curvature * c.directionNorth * c.directionNorth,
          steepness};
}

/// gerstner.cpp's GerstnerSums, one point per lane.
struct Sums {
  V residualEast_m, residualNorth_m;  // F = x(x0) - x
  V jacobianEE, jacobianEN, jacobianNN;
  V elevation_m;  // sum a cos(theta)

  [[nodiscard]] V residualSquared_m2() const {
    return hn::Add(hn::Mul(residualEast_m, residualEast_m), hn::Mul(residualNorth_m, residualNorth_m));
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
  return {hn::Sub(x0, x), hn::Sub(y0, y), hn::Set(d, 1.0), hn::Zero(d), hn::Set(d, 1.0), hn::Zero(d)};
}

/// Adds one component, of phase sin `sine` and cos `cosine` at the trial
/// rest positions, to the sums (gerstner.cpp's addComponent).
void addComponent(D d, Sums& s, const GerstnerTerm& c, V sine, V cosine) {
  s.residualEast_m = hn::Sub(s.residualEast_m, hn::Mul(hn::Set(d, c.horizontalEast_m), sine));
  s.residualNorth_m = hn::Sub(s.residualNorth_m, hn::Mul(hn::Set(d, c.horizontalNorth_m), sine));
  s.jacobianEE = hn::Sub(s.jacobianEE, hn::Mul(hn::Set(d, c.curvatureEE), cosine));
  s.jacobianEN = hn::Sub(s.jacobianEN, hn::Mul(hn::Set(d, c.curvatureEN), cosine));
  s.jacobianNN = hn::Sub(s.jacobianNN, hn::Mul(hn::Set(d, c.curvatureNN), cosine));
  s.elevation_m = hn::Add(hn::Mul(hn::Set(d, c.amplitude_m), cosine), s.elevation_m);
}

/// The parametric surface at trial rest positions (x0, y0) for target points
/// (x, y) (gerstner.cpp's evaluate): F = x0 - x - sum Q a d sin(theta),
/// J = I - sum Q a k cos(theta) d d^T, elevation sum a cos(theta), every
/// phase's sin and cos from sinCos; the kept components' go to `phases`.
template <class Table>
[[nodiscard]] Sums evaluate(D d, const Table& terms, V x0, V y0, V x, V y, LanePhases& phases) {
  Sums s = startSums(d, x0, y0, x, y);
  GerstnerTerm scratch;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const GerstnerTerm& c = terms.at(i, scratch);
    const V theta = phase(d, c, x0, y0);
    const SinCos sc = sinCos(d, theta);
    if (i < kKeptComponents) phases.store(d, i, sc.sine, sc.cosine);
    addComponent(d, s, c, sc.sine, sc.cosine);
  }
  return s;
}

/// A Newton step moves each phase by delta = k d.(step) [rad]. Up to this
/// bound the solve moves each phase's sin and cos by the angle-addition
/// identity with sinCosOfStep; beyond it, it calls sinCos. The first
/// step from x0 = x moves a phase by up to about k Q sum a (measured: 0.13
/// rad on the fleet benchmark's sea, 0.43 on a JONSWAP storm of Hs 8 m at
/// 0.9 of the fold limit), the later ones by far less: 0.5 rad takes them all
/// there, where 1e-2 (the scalar solve's bound) would miss most first steps.
constexpr double kPhaseStepBound_rad = kGerstnerPhaseStepBound_rad;

/// sin delta and cos delta for |delta| <= kPhaseStepBound_rad, from the
/// polynomials of det::sinCos (det_math.hpp) without its range reduction:
/// within about an ulp (theirs, and the Horner steps' roundings).
/// gerstner.cpp's scalar solve takes the same identity with a
/// shorter series up to 1e-2 rad.
[[nodiscard]] SinCos sinCosOfStep(D d, V delta) {
  const V d2 = hn::Mul(delta, delta);
  return {hn::Add(delta, hn::Mul(hn::Mul(delta, d2), det_simd::horner(d, det::kSinPoly, d2))),
          hn::Add(hn::Set(d, 1.0), hn::Mul(d2, det_simd::horner(d, det::kCosPoly, d2)))};
}

/// The sums at candidates (xc, yc) = the rest positions of `rest` + (dx, dy)
/// (gerstner.cpp's evaluateNear), the kept components' sin and cos stored in
/// `candidate`. A kept component's phase moves by delta = k d.(dx, dy); in
/// the lanes where |delta| <= kPhaseStepBound_rad its sin and cos come from
/// the rest position's by sin(theta + delta) = sin theta cos delta +
/// cos theta sin delta, cos(theta + delta) = cos theta cos delta -
/// sin theta sin delta; in the others from sinCos of the candidate's
/// phase. Each lane's numbers depend on its own delta only, whatever its
/// neighbours'; either way is skipped when no lane of `searching` takes it
/// (the other lanes' results are not used). The components not kept call
/// sinCos.
template <class Table>
[[nodiscard]] Sums evaluateNear(D d, const Table& terms, V xc, V yc, V dx, V dy, V x, V y, M searching,
                                const LanePhases& rest, LanePhases& candidate) {
  Sums s = startSums(d, xc, yc, x, y);
  const V bound_rad = hn::Set(d, kPhaseStepBound_rad);
  GerstnerTerm scratch;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const GerstnerTerm& c = terms.at(i, scratch);
    if (i >= kKeptComponents) {
      const SinCos sc = sinCos(d, phase(d, c, xc, yc));
      addComponent(d, s, c, sc.sine, sc.cosine);
      continue;
    }
    // gerstner.cpp's delta, with its operations.
    const V delta = hn::Mul(hn::Set(d, c.wavenumber_radpm), hn::Add(hn::Mul(hn::Set(d, c.directionEast), dx),
                                                                    hn::Mul(hn::Set(d, c.directionNorth), dy)));
    const M small = hn::Le(hn::Abs(delta), bound_rad);  // false for NaN
    V sine = hn::Zero(d), cosine = hn::Zero(d);
    if (!hn::AllFalse(d, hn::And(small, searching))) {
      const SinCos from = rest.load(d, i);
      const SinCos step = sinCosOfStep(d, delta);
      sine = hn::Add(hn::Mul(from.cosine, step.sine), hn::Mul(from.sine, step.cosine));
      cosine = hn::Sub(hn::Mul(from.cosine, step.cosine), hn::Mul(from.sine, step.sine));
    }
    if (!hn::AllFalse(d, hn::AndNot(small, searching))) {
      const SinCos sc = sinCos(d, phase(d, c, xc, yc));
      sine = hn::IfThenElse(small, sine, sc.sine);
      cosine = hn::IfThenElse(small, cosine, sc.cosine);
    }
    candidate.store(d, i, sine, cosine);
    addComponent(d, s, c, sine, cosine);
  }
  return s;
}

/// The surface particles above the points of the lanes.
struct RestPoints {
  V x0_m, y0_m;   // rest positions [m]
  V elevation_m;  // height above the mean level [m]
  M converged;    // |F| <= tolerance; the other lanes go to the scalar solve
};

/// Newton's method from trial rest positions (x0, y0), whose sums `s` and
/// kept phases `rest` are given, until |F| <= tolerance_m [m]:
/// solveRestPoints' iteration.
template <class Table>
[[nodiscard]] RestPoints newtonFrom(D d, const Table& terms, V x, V y, V x0, V y0, Sums s, LanePhases& rest,
                                    LanePhases& candidate, double tolerance_m = kGerstnerResidualTolerance_m) {
  const V tolerance2 = hn::Set(d, tolerance_m * tolerance_m);
  const double limit_m = terms.positionLimit_m();
  const std::size_t kept = std::min(terms.size(), kKeptComponents);
  V r2 = s.residualSquared_m2();
  M failed = hn::Not(inPhaseRange(d, x, y, limit_m));
  M stopped = hn::Or(failed, hn::Le(r2, tolerance2));
  for (int iteration = 0; iteration < kGerstnerMaxNewtonIterations && !hn::AllTrue(d, stopped); ++iteration) {
    // Newton step -J^-1 F of the symmetric 2x2 Jacobian.
    const V det = hn::Sub(hn::Mul(s.jacobianEE, s.jacobianNN), hn::Mul(s.jacobianEN, s.jacobianEN));
    const V stepEast_m = hn::Div(
        hn::Sub(hn::Mul(s.jacobianEN, s.residualNorth_m), hn::Mul(s.jacobianNN, s.residualEast_m)), det);
    const V stepNorth_m = hn::Div(
        hn::Sub(hn::Mul(s.jacobianEN, s.residualEast_m), hn::Mul(s.jacobianEE, s.residualNorth_m)), det);
    M searching = hn::Not(stopped);  // lanes still looking for a step that decreases |F|
    double fraction = 1;
    for (int halving = 0; halving < kGerstnerMaxStepHalvings && !hn::AllFalse(d, searching); ++halving, fraction /= 2) {
      const V xc = hn::Add(hn::Mul(hn::Set(d, fraction), stepEast_m), x0);
      const V yc = hn::Add(hn::Mul(hn::Set(d, fraction), stepNorth_m), y0);
      const M outside = hn::AndNot(inPhaseRange(d, xc, yc, limit_m), searching);
      failed = hn::Or(failed, outside);
      searching = hn::AndNot(outside, searching);
      // The move as the scalar solve takes it: the difference of the
      // positions, not fraction * step.
      const Sums trial = evaluateNear(d, terms, xc, yc, hn::Sub(xc, x0), hn::Sub(yc, y0), x, y, searching, rest,
                                      candidate);
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

/// gerstner.cpp's solveRestPoint in every lane at once, from x0 = x: Newton's
/// method with step halving on the strictly convex potential whose gradient
/// is F (docs/waves.md), the same tolerance and caps. The loops run while
/// any lane still works; a lane that has converged, run out of halvings or
/// passed kPhaseLimit_rad stops updating (masked selects), so each lane follows
/// exactly the iterations it would follow alone.
///
/// `rest` holds the sin and cos of the kept components' phases at each
/// lane's current rest position: from sinCos at x0 = x, then moved with
/// each accepted step (evaluateNear; a candidate's go to `candidate`, and to
/// `rest` in the lanes that accept it). On return they are those at the
/// lanes' rest points, for the velocity.
template <class Table>
[[nodiscard]] RestPoints solveRestPoints(D d, const Table& terms, V x, V y, LanePhases& rest, LanePhases& candidate) {
  const Sums s = evaluate(d, terms, x, y, x, y, rest);
  return newtonFrom(d, terms, x, y, x, y, s, rest, candidate);
}

/// Each kept component's phase step at a fixed point over the time since a
/// grid's last sample, `-(omega + k d.current) dt` (the drift is in the
/// phase, wave_batch-inl.hpp's phaseAtOriginForSin_rad), as sin and cos:
/// the same in every lane and vector.
struct TimeSteps {
  TimeSteps(D d, std::span<const WaveComponent> components, double dt_s, const UniformCurrent& current) {
    for (std::size_t i = 0; i < components.size() && i < kKeptComponents; ++i) {
      const SinCos step = sinCosOfStep(d, hn::Set(d, -fixedPointFrequency_radps(components[i], current) * dt_s));
      sine[i] = hn::GetLane(step.sine);
      cosine[i] = hn::GetLane(step.cosine);
    }
  }
  // Not zeroed: the constructor writes the first components' before any read.
  double sine[kKeptComponents];
  double cosine[kKeptComponents];
};

/// A grid's start from its last sample (WarmStart): the sums at each
/// lane's last rest point (x0, y0), its kept components' sin and cos from
/// then, each phase moved by -omega dt (the time since, `steps`; at most
/// kPhaseStepBound_rad, which the caller checks) with the angle-addition
/// identity of evaluateNear, and kept in `rest`.
template <class Table>
[[nodiscard]] Sums evaluateFromLast(D d, const Table& terms, V x0, V y0, V x, V y, const WarmStart& warm,
                                    const TimeSteps& steps, std::size_t begin, LanePhases& rest) {
  Sums s = startSums(d, x0, y0, x, y);
  GerstnerTerm scratch;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const GerstnerTerm& c = terms.at(i, scratch);
    const SinCos step{hn::Set(d, steps.sine[i]), hn::Set(d, steps.cosine[i])};
    const V sinLast = hn::LoadU(d, warm.values + (2 + 2 * i) * warm.stride + begin);
    const V cosLast = hn::LoadU(d, warm.values + (3 + 2 * i) * warm.stride + begin);
    const V sine = hn::Add(hn::Mul(cosLast, step.sine), hn::Mul(sinLast, step.cosine));
    const V cosine = hn::Sub(hn::Mul(cosLast, step.cosine), hn::Mul(sinLast, step.sine));
    rest.store(d, i, sine, cosine);
    addComponent(d, s, c, sine, cosine);
  }
  return s;
}

/// The rest points' solve of one vector of a grid's nodes: from the last
/// sample's (WarmStart::fromLast) to kGerstnerGridTolerance_m, or afresh to
/// the point queries' tolerance, its results kept for the next (the kept
/// components' sin and cos in `rest`). A lane that did not converge clears
/// `*warm.complete`: the next sample starts afresh.
template <class Table>
[[nodiscard]] RestPoints solveGridNodes(D d, const Table& terms, V x, V y, const WarmStart& warm,
                                        const TimeSteps& steps, std::size_t begin, LanePhases& rest,
                                        LanePhases& candidate) {
  RestPoints p;
  if (warm.fromLast) {
    const V x0 = hn::LoadU(d, warm.values + begin), y0 = hn::LoadU(d, warm.values + warm.stride + begin);
    p = newtonFrom(d, terms, x, y, x0, y0, evaluateFromLast(d, terms, x0, y0, x, y, warm, steps, begin, rest), rest,
                   candidate, kGerstnerGridTolerance_m);
  } else {
    p = solveRestPoints(d, terms, x, y, rest, candidate);
  }
  hn::StoreU(p.x0_m, d, warm.values + begin);
  hn::StoreU(p.y0_m, d, warm.values + warm.stride + begin);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const SinCos sc = rest.load(d, i);
    hn::StoreU(sc.sine, d, warm.values + (2 + 2 * i) * warm.stride + begin);
    hn::StoreU(sc.cosine, d, warm.values + (3 + 2 * i) * warm.stride + begin);
  }
  if (!hn::AllTrue(d, p.converged)) *warm.complete = false;
  return p;
}

/// gerstnerBatch (GerstnerSurface::heights, velocities and
/// heightsAndVelocities): one Newton solve per point for its height [m] and
/// its velocity [m/s], the heights stored when `batch.height_out_m` is not
/// null, the velocities when `batch.velocity_out` is not null, the pressure
/// heads [m] under the surface particles when `batch.head_out_m` is. The velocity
/// takes the sin and cos of the kept components' phases at each rest point
/// from the solve (they are not sinCos of the rest point's phase bit
/// for bit, having been moved by the angle-addition identity, so
/// velocities() takes them too and gives heightsAndVelocities()' bits).
void GerstnerHeightsAndVelocities(std::span<const WaveComponent> components, const GerstnerSettings& settings,
                                  const PointBatch& batch, PointFallback fallback) {
  const D d;
  const double t = batch.t_s;
  const auto make = [&settings, t](const WaveComponent& c) {
    return gerstnerTerm(c, settings.steepness, t, settings.current);
  };
  const Terms<GerstnerTerm, decltype(make)> terms(components, make);
  LanePhases rest, candidate;  // the solve's sin and cos
  // A grid's history holds every component's phases: kept ones only.
  static_assert(kLanes <= kWarmStartPad);
  const bool keepHistory = batch.warm.values != nullptr && terms.size() <= kKeptComponents;
  if (batch.warm.values != nullptr && !keepHistory) *batch.warm.complete = false;
  const TimeSteps steps(d, keepHistory && batch.warm.fromLast ? components : components.first(0), batch.warm.dt_s,
                        settings.current);
  forEachVector(d, batch, [&](std::size_t begin, V x, V y) {
    const RestPoints p = keepHistory ? solveGridNodes(d, terms, x, y, batch.warm, steps, begin, rest, candidate)
                                     : solveRestPoints(d, terms, x, y, rest, candidate);
    const V eta = hn::Add(hn::Set(d, settings.meanLevel_m), p.elevation_m);
    if (batch.head_out_m != nullptr) {  // the phases at the rest point, as the velocity's
      storeHeads(d, terms, rest, p.x0_m, p.y0_m, eta, p.converged, begin, batch, fallback);
      return;
    }
    if (batch.velocity_out == nullptr) {
      storeHeights(d, eta, p.converged, begin, batch, fallback);
      return;
    }
    // d/dt of x = x0 - sum d Q a sin(theta), eta = sum a cos(theta) at fixed
    // x0 (d theta/dt = -omega): the orbital velocity with Q along d.
    const auto horizontal = [d](const GerstnerTerm& c, V orbital_mps) {
      return hn::Mul(hn::Set(d, c.steepness), orbital_mps);
    };
    storeVelocities(d, terms, rest, p.x0_m, p.y0_m, eta, horizontal, settings.current, p.converged, begin, batch,
                    fallback);
  });
}

}  // namespace
}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

// The table of each function's versions, one per instruction set compiled
// above; HWY_DYNAMIC_DISPATCH calls the best one the CPU supports.
HWY_EXPORT(GerstnerHeightsAndVelocities);

void gerstnerBatch(std::span<const WaveComponent> components, const GerstnerSettings& settings, const PointBatch& batch,
                   PointFallback fallback) {
  HWY_DYNAMIC_DISPATCH(GerstnerHeightsAndVelocities)(components, settings, batch, fallback);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE

// The floodwater's free surface: the level at which a compartment's closed
// mesh holds the water in it, found with the hull's own cut (docs/flooding.md,
// "The model", "The free surface").
#include "flood/floodwater.hpp"

#include "kernels/buffers.hpp"
#include "kernels/classify.hpp"
#include "kernels/cut.hpp"
#include "kernels/heights.hpp"
#include "kernels/volume.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

namespace keel::KEEL_ABI::detail {

namespace {

/// The water's volume and centroid, and the section's, from the sums.
VolumeBelow resultOf(const PyramidSums& w, const double up[3]) {
  VolumeBelow out;
  out.volume_m3 = w.volume3_m3 / 3;
  if (w.volume3_m3 > 0) {
    const double to = 1 / (4 * w.volume3_m3);
    out.centroid_m = btVector3(btScalar(w.moment12_m4[0] * to), btScalar(w.moment12_m4[1] * to),
                               btScalar(w.moment12_m4[2] * to));
  }
  out.waterplane_m2 = w.section_m2;
  if (w.section_m2 > 0) {
    const double to = 1 / w.section_m2;
    double m[3];
    for (int k = 0; k < 3; ++k) m[k] = (out.volume_m3 * up[k] + w.sectionMoment_m3[k]) * to;
    out.sectionCentroid_m = btVector3(btScalar(m[0]), btScalar(m[1]), btScalar(m[2]));
  }
  return out;
}

/// Compartment i's sums: its whole wet triangles (its blocks not wholly
/// dry) and its pieces (its runs), in one pass of the kernel.
PyramidSums sumsOf(const CompartmentMeshes& m, const BoatBuffers& b, std::size_t i, const CompartmentState& c,
                   const PieceStream& whole, const PieceStream& pieces, const double up[3]) {
  std::array<PieceRange, 8> ranges;
  std::size_t count = 0;
  PyramidSums sums;
  const auto add = [&](const PieceStream* stream, std::size_t begin, std::size_t end) {
    if (end <= begin) return;
    if (count == ranges.size()) addPyramids(std::span(ranges.data(), count), c.trialPoint_m, up, sums), count = 0;
    ranges[count++] = PieceRange{stream, begin, end};
  };
  const std::size_t end = m.firstTriangle[i + 1];
  const auto dry = [&](std::size_t t) { return b.blockKind[t / kPad] == kBlockDry; };
  for (std::size_t t = m.firstTriangle[i]; t < end;) {
    while (t < end && dry(t)) t += kPad;
    const std::size_t from = t;
    while (t < end && !dry(t)) t += kPad;
    add(&whole, from, t);
  }
  add(&pieces, c.twoWetRun[0], c.twoWetRun[1]);
  add(&pieces, b.pieces.slots + c.twoWetRun[0], b.pieces.slots + c.twoWetRun[1]);
  add(&pieces, c.oneWetRun[0], c.oneWetRun[1]);
  addPyramids(std::span(ranges.data(), count), c.trialPoint_m, up, sums);
  return sums;
}

/// Each searching compartment's volume below its plane `p . up = trial_m`,
/// into its `trialBelow`: the planes as flat water at each
/// compartment's vertices, then one vertex-height, classify and cut pass of
/// the hull's kernels over all compartments, and the wet pieces summed per
/// compartment. Exact for polyhedra.
void volumesBelow(FloodState& f, const btScalar up_body[3]) {
  const CompartmentMeshes& m = *f.meshes;
  const std::size_t n = f.compartments.size();
  btScalar lo = BT_LARGE_FLOAT, hi = -BT_LARGE_FLOAT;
  for (std::size_t i = 0; i < n; ++i) {
    // A compartment not searching: its plane below it, so it is dry and
    // costs nothing.
    CompartmentState& c = f.state[i];
    const btScalar at = c.searching ? btScalar(c.trial_m) : c.bottomAboveCentre_m - 1;
    for (int k = 0; k < 3; ++k) c.trialPoint_m[k] = double(at) * double(up_body[k]);
    std::fill(f.water.begin() + std::ptrdiff_t(m.firstVertex[i]),
              f.water.begin() + std::ptrdiff_t(m.firstVertex[i + 1]), at);
    lo = std::min(lo, at), hi = std::max(hi, at);
  }
  (void)vertexHeights(m.soa, up_body, 0, f.water.data(), f.height.data());
  BoatBuffers& b = threadBuffers(m.soa);
  const std::size_t crossing = classifyTriangles(m.soa, f.height.data(), up_body, 0, Extent{lo, hi}, b);
  cutCrossing(m.soa, b, crossing, false, false, CutOutput::Volume);
  const double up[3] = {double(up_body[0]), double(up_body[1]), double(up_body[2])};
  // The pieces' runs: crossing triangle k's first piece is slot k, and a
  // two-wet one's second slot slots + k (PieceBuffer); classifyTriangles
  // lists them in order of the entries, two-wet ones first, so each
  // compartment has a run in each list.
  for (CompartmentState& c : f.state) c.twoWetRun[0] = c.twoWetRun[1] = c.oneWetRun[0] = c.oneWetRun[1] = 0;
  for (std::size_t k = 0; k < crossing;) {
    const std::size_t i = m.compartmentOf[std::size_t(b.crossing[k])], first = k;
    const std::size_t listEnd = k < b.twoWetCrossing ? b.twoWetCrossing : crossing;
    while (k < listEnd && m.compartmentOf[std::size_t(b.crossing[k])] == i) ++k;
    std::size_t* run = first < b.twoWetCrossing ? f.state[i].twoWetRun : f.state[i].oneWetRun;
    assert(run[1] == 0);  // one run a list
    run[0] = first, run[1] = k;
  }
  const PieceStream whole = b.triangles(m.soa), pieces = b.pieces.stream();
  for (std::size_t i = 0; i < n; ++i)
    if (f.state[i].searching) f.state[i].trialBelow = resultOf(sumsOf(m, b, i, f.state[i], whole, pieces, up), up);
}

}  // namespace

namespace {

/// Starts compartment c's search, or settles it at once when dry or full.
/// Newton's method on V(level) = water / permeability (the mesh's volume
/// below the level; the water fills that fraction of it), V' being the
/// section's area, kept in a bracket: V rises monotonically from 0 at the
/// bottom to the mesh's volume at the top.
void startSearch(const Hull& space, const btVector3& up, CompartmentState& c) {
  c.searching = false;
  if (!(c.water_m3 > 0)) {  // dry: the level is at the bottom
    c.level_m = c.bottomAboveCentre_m, c.below = VolumeBelow{}, c.solved = true;
    return;
  }
  if (c.water_m3 >= c.capacity_m3) {  // full
    c.level_m = c.topAboveCentre_m, c.below = VolumeBelow{double(space.volume_m3()), space.centroid_m(), 0};
    c.solved = true;
    return;
  }
  const double target = c.water_m3 / c.permeability, volume = c.capacity_m3 / c.permeability;
  c.lo_m = c.bottomAboveCentre_m, c.loVolume_m3 = 0, c.hi_m = c.topAboveCentre_m, c.hiVolume_m3 = volume;
  double x = c.lo_m + (c.hi_m - c.lo_m) * target / volume;
  // A plane turned about its section's centroid cuts off the same volume to
  // first order in the angle: the last section's centroid at the new
  // attitude, moved by the change in water over the section's area, starts
  // (usually the only step a substep needs).
  if (c.solved && c.below.waterplane_m2 > 0)
    x = double(c.below.sectionCentroid_m.dot(up)) + (target - c.below.volume_m3) / c.below.waterplane_m2;
  c.trial_m = std::clamp(x, c.lo_m, c.hi_m);
  c.searching = true;
}

/// Takes the volume found at c's trial level: done when it holds the water
/// (or the bracket is as narrow as btScalar resolves), else the next trial.
void nextTrial(CompartmentState& c) {
  const double target = c.water_m3 / c.permeability, volume = c.capacity_m3 / c.permeability;
  const double tolerance = volume * 16 * double(std::numeric_limits<btScalar>::epsilon());
  const double resolution = 4 * double(std::numeric_limits<btScalar>::epsilon()) *
                            (std::abs(c.bottomAboveCentre_m) + std::abs(c.topAboveCentre_m));
  const double x = c.trial_m, v = c.trialBelow.volume_m3;
  if (std::abs(v - target) <= tolerance || c.hi_m - c.lo_m <= resolution) {
    c.level_m = btScalar(x), c.below = c.trialBelow, c.solved = true, c.searching = false;
    return;
  }
  if (v < target)
    c.lo_m = x, c.loVolume_m3 = v;
  else
    c.hi_m = x, c.hiVolume_m3 = v;
  const double newton = c.trialBelow.waterplane_m2 > 0 ? x + (target - v) / c.trialBelow.waterplane_m2 : c.lo_m - 1;
  c.trial_m = newton > c.lo_m && newton < c.hi_m
                  ? newton
                  : c.lo_m + (c.hi_m - c.lo_m) *
                                 std::clamp((target - c.loVolume_m3) / (c.hiVolume_m3 - c.loVolume_m3), 0.1, 0.9);
}

}  // namespace

void solveLevels(FloodState& f, const btScalar up_body[3]) {
  const btVector3 up(up_body[0], up_body[1], up_body[2]);
  bool searching = false;
  for (std::size_t i = 0; i < f.compartments.size(); ++i) {
    startSearch(*f.compartments[i].space, up, f.state[i]);
    searching = searching || f.state[i].searching;
  }
  for (int iteration = 0; iteration < 60 && searching; ++iteration) {
    volumesBelow(f, up_body);
    searching = false;
    for (CompartmentState& c : f.state)
      if (c.searching) {
        nextTrial(c);
        searching = searching || c.searching;
      }
  }
  for (CompartmentState& c : f.state)  // out of iterations: the last trial
    if (c.searching) c.level_m = btScalar(c.trial_m), c.below = c.trialBelow, c.solved = true, c.searching = false;
}

double orificeFlow_m3ps(double dischargeCoefficient, double area_m2, double bottom_m, double top_m, double levelA_m,
                        double levelB_m, double gravity_mps2) {
  const double high = std::max(levelA_m, levelB_m), low = std::min(levelA_m, levelB_m);
  if (!(high > bottom_m) || !(top_m > bottom_m)) return 0;
  const double width_m = area_m2 / (top_m - bottom_m);
  // Drowned below the lower surface: the whole difference drives the flow;
  // between the surfaces, the depth below the higher one (free outflow).
  const double z1 = std::clamp(low, bottom_m, top_m), z2 = std::clamp(high, bottom_m, top_m);
  const double drowned = (z1 - bottom_m) * std::sqrt(high - low);
  const auto power1_5 = [](double x) { return x * std::sqrt(x); };  // std::pow costs several times more
  const double free = (2.0 / 3.0) * (power1_5(high - z1) - power1_5(high - z2));
  const double q = dischargeCoefficient * width_m * std::sqrt(2 * gravity_mps2) * (drowned + free);
  return levelA_m >= levelB_m ? q : -q;
}

}  // namespace keel::KEEL_ABI::detail

// The floodwater's free surface: the level at which a compartment's closed
// mesh holds the water in it, found with the hull's own cut (docs/flooding.md,
// "The free surface").
#include "flood/floodwater.hpp"

#include "kernels/buffers.hpp"
#include "kernels/classify.hpp"
#include "kernels/cut.hpp"
#include "kernels/heights.hpp"
#include "kernels/pressure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace keel::KEEL_ABI::detail {

namespace {

/// Adds piece i of `p` (weight 0: none) below the plane through `o` (a point
/// on it, body frame). The wet pieces and the section close the water, and
/// the section adds nothing to a pyramid with its apex o on the section's
/// plane: the water is the sum of the pyramids o -> piece, `S . (g - o) / 3`
/// each with its centroid at (3 g + o) / 4 (the divergence theorem); the
/// sums keep 3 V and 12 times the moment, so that a piece costs no division.
/// The section's area and moment by the divergence theorem too: its area
/// vector is minus the sum of the pieces' (the surface is closed), and its
/// first moment is up V - sum (S . up) g (div(x_k up) = up_k, S . up
/// constant on a piece).
inline void addPiece(const PieceStream& p, std::size_t i, const double o[3], const double up[3], WetSums& w) {
  const double weight = double(p.weight[i]);
  const double g[3] = {double(p.gx[i]), double(p.gy[i]), double(p.gz[i])};
  const double S[3] = {weight * double(p.sx[i]), weight * double(p.sy[i]), weight * double(p.sz[i])};
  const double v3 = S[0] * (g[0] - o[0]) + S[1] * (g[1] - o[1]) + S[2] * (g[2] - o[2]);
  const double sUp = S[0] * up[0] + S[1] * up[1] + S[2] * up[2];
  w.volume_m3 += v3, w.section_m2 -= sUp;
  for (int k = 0; k < 3; ++k) w.moment[k] += v3 * (3 * g[k] + o[k]), w.sectionMoment[k] -= sUp * g[k];
}

/// The water's volume and centroid, and the section's, from the sums.
VolumeBelow resultOf(const WetSums& w, const double up[3]) {
  VolumeBelow out;
  out.volume_m3 = w.volume_m3 / 3;
  if (w.volume_m3 > 0) {
    const double to = 1 / (4 * w.volume_m3);
    out.centroid_m = btVector3(btScalar(w.moment[0] * to), btScalar(w.moment[1] * to), btScalar(w.moment[2] * to));
  }
  out.waterplane_m2 = w.section_m2;
  if (w.section_m2 > 0) {
    const double to = 1 / w.section_m2;
    double m[3];
    for (int k = 0; k < 3; ++k) m[k] = (out.volume_m3 * up[k] + w.sectionMoment[k]) * to;
    out.sectionCentroid_m = btVector3(btScalar(m[0]), btScalar(m[1]), btScalar(m[2]));
  }
  return out;
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
    // A compartment not wanted: its plane below it, so it is dry and costs nothing.
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
  cutCrossing(m.soa, b, crossing, false, false, true);
  const double up[3] = {double(up_body[0]), double(up_body[1]), double(up_body[2])};
  std::vector<WetSums>& sums = f.sums;
  // The whole wet triangles, skipping blocks wholly dry; then the pieces.
  const PieceStream whole = b.triangles(m.soa);
  for (std::size_t i = 0; i < n; ++i) {
    if (!f.state[i].searching) continue;
    const double* o = f.state[i].trialPoint_m;
    WetSums w;  // in registers, not through memory
    for (std::size_t t = m.firstTriangle[i]; t < m.firstTriangle[i + 1]; ++t) {
      if (t % kPad == 0 && b.blockKind[t / kPad] == kBlockDry) {
        t += kPad - 1;
        continue;
      }
      if (whole.weight[t] != 0) addPiece(whole, t, o, up, w);
    }
    sums[i] = w;
  }
  const PieceStream pieces = b.pieces.stream();
  // Crossing triangle k's first piece is slot k, and a two-wet one's second
  // slot slots + k (PieceBuffer). classifyTriangles lists them in runs of
  // one compartment (in the order of the entries, two-wet ones first): each
  // run is summed in registers.
  for (std::size_t k = 0; k < crossing;) {
    const std::size_t i = m.compartmentOf[std::size_t(b.crossing[k])];
    const double* o = f.state[i].trialPoint_m;
    WetSums w = sums[i];
    for (; k < crossing && m.compartmentOf[std::size_t(b.crossing[k])] == i; ++k) {
      addPiece(pieces, k, o, up, w);
      if (k < b.twoWetCrossing) addPiece(pieces, b.pieces.slots + k, o, up, w);
    }
    sums[i] = w;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (f.state[i].searching) f.state[i].trialBelow = resultOf(sums[i], up);
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

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

VolumeBelow volumeBelow(const Hull& space, const btScalar up_body[3], btScalar level_m, btScalar* water,
                        btScalar* height) {
  const HullSoA& soa = space.soa();
  std::fill(water, water + soa.vertexPadded, level_m);
  // The plane is flat water at level_m with the centre at 0 along up: each
  // vertex's height above it, then the same classify, cut and pressure sums
  // as a hull's substep. The pressure integral of a flat surface over a
  // closed mesh is rho g times the volume below it, at its centroid.
  const VertexHeights heights = vertexHeights(soa, up_body, 0, water, height);
  VolumeBelow out;
  if (!(heights.lowestAbove_m < 0)) return out;
  BoatBuffers& b = threadBuffers(soa);
  const std::size_t crossing = classifyTriangles(soa, height, up_body, 0, Extent{level_m, level_m}, b);
  cutCrossing(soa, b, crossing, false, false);
  const PieceStream streams[2] = {b.triangles(soa), b.pieces.stream()};
  const PressureSums sums = pressureSums(streams, 2, up_body);
  const btVector3 up(up_body[0], up_body[1], up_body[2]);
  const HydrostaticResult r = pressureResult(sums, 1, 1, up);
  out.volume_m3 = -(sums.depthForce[0] * double(up.x()) + sums.depthForce[1] * double(up.y()) +
                    sums.depthForce[2] * double(up.z())) /
                  3;
  out.centroid_m = r.centreOfBuoyancy_m;
  // The section by the plane closes the wet surface, so by the divergence
  // theorem its area (dV/dlevel) is minus the sum of the wet pieces' area
  // vectors along up, and its first moment is up V - sum (S . up) g, g each
  // piece's centroid (div(x_k up) = up_k, and S . up is constant on a piece).
  double moment[3] = {out.volume_m3 * double(up_body[0]), out.volume_m3 * double(up_body[1]),
                      out.volume_m3 * double(up_body[2])};
  for (const PieceStream& p : streams)
    for (std::size_t i = 0; i < p.count; ++i) {
      const double sUp = double(p.weight[i]) *
                         (double(p.sx[i]) * double(up_body[0]) + double(p.sy[i]) * double(up_body[1]) +
                          double(p.sz[i]) * double(up_body[2]));
      out.waterplane_m2 -= sUp;
      moment[0] -= sUp * double(p.gx[i]), moment[1] -= sUp * double(p.gy[i]), moment[2] -= sUp * double(p.gz[i]);
    }
  if (out.waterplane_m2 > 0)
    out.sectionCentroid_m = btVector3(btScalar(moment[0] / out.waterplane_m2), btScalar(moment[1] / out.waterplane_m2),
                                      btScalar(moment[2] / out.waterplane_m2));
  return out;
}

void solveLevel(const Hull& space, const btScalar up_body[3], btScalar lo_m, btScalar hi_m, CompartmentState& c) {
  btScalar* water = c.water.data();
  btScalar* height = c.height.data();
  if (!(c.water_m3 > 0)) {  // dry: the level is at the bottom
    c.level_m = lo_m, c.below = VolumeBelow{}, c.solved = true;
    return;
  }
  if (c.water_m3 >= c.capacity_m3) {  // full
    c.level_m = hi_m, c.below = VolumeBelow{double(space.volume_m3()), space.centroid_m(), 0}, c.solved = true;
    return;
  }
  // Newton's method on V(level) = water / permeability (the mesh's volume
  // below the level; the water fills that fraction of it), V' being the section's area,
  // from the last solve's level (usually one step and one check), kept in a
  // bracket: V rises monotonically from 0 at lo to the capacity at hi;
  // bisection-like steps when Newton's leave it.
  const double target = c.water_m3 / c.permeability, volume = c.capacity_m3 / c.permeability;
  const double tolerance = volume * 16 * double(std::numeric_limits<btScalar>::epsilon());
  const double resolution = 4 * double(std::numeric_limits<btScalar>::epsilon()) * (std::abs(lo_m) + std::abs(hi_m));
  double a = lo_m, va = 0, b = hi_m, vb = volume;
  // A plane turned about its section's centroid cuts off the same volume to
  // first order in the angle: the last section's centroid at the new
  // attitude, moved by the change in water over the section's area, starts.
  double x = a + (b - a) * target / volume;
  if (c.solved && c.below.waterplane_m2 > 0) {
    const btVector3 up(up_body[0], up_body[1], up_body[2]);
    x = double(c.below.sectionCentroid_m.dot(up)) + (target - c.below.volume_m3) / c.below.waterplane_m2;
  }
  x = std::clamp(x, a, b);
  VolumeBelow at;
  for (int iteration = 0; iteration < 60; ++iteration) {
    at = volumeBelow(space, up_body, btScalar(x), water, height);
    const double v = at.volume_m3;
    if (std::abs(v - target) <= tolerance || b - a <= resolution) break;
    if (v < target)
      a = x, va = v;
    else
      b = x, vb = v;
    const double newton = at.waterplane_m2 > 0 ? x + (target - v) / at.waterplane_m2 : a - 1;
    x = newton > a && newton < b ? newton : a + (b - a) * std::clamp((target - va) / (vb - va), 0.1, 0.9);
  }
  c.level_m = btScalar(x);
  c.below = at;
  c.solved = true;
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
  const double free = (2.0 / 3.0) * (std::pow(high - z1, 1.5) - std::pow(high - z2, 1.5));
  const double q = dischargeCoefficient * width_m * std::sqrt(2 * gravity_mps2) * (drowned + free);
  return levelA_m >= levelB_m ? q : -q;
}

}  // namespace keel::KEEL_ABI::detail

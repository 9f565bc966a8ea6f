// WaterSurface's default batch queries, FunctionSurface, and the water's
// axes from gravity (WaterFrame).

#include <keel/surface_authoring.hpp>

#include "water/grid_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {

void WaterSurface::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                           btScalar* out_m) const {
  for (std::size_t i = 0; i < count; ++i) out_m[i] = height(u_m[i], v_m[i], t_s);
}

WaterVelocity WaterSurface::velocity(btScalar, btScalar, btScalar, double) const { return {}; }

void WaterSurface::velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                              double t_s, WaterVelocity* out) const {
  for (std::size_t i = 0; i < count; ++i) out[i] = velocity(u_m[i], v_m[i], w_m[i], t_s);
}

void WaterSurface::heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                                        std::size_t count, double t_s, btScalar* height_out_m,
                                        WaterVelocity* velocity_out) const {
  heights(u_m, v_m, count, t_s, height_out_m);
  velocities(u_m, v_m, w_m, count, t_s, velocity_out);
}

void WaterSurface::pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                 double t_s, btScalar* out_m) const {
  // The static head: the depth below the surface.
  heights(u_m, v_m, count, t_s, out_m);
  for (std::size_t i = 0; i < count; ++i) out_m[i] -= w_m[i];
}

QueryCost WaterSurface::queryCost() const { return {}; }

namespace {

/// checkWaterGrid's refusal, apart from its test: the test, run at every
/// grid query, then keeps no stream's setup of its own.
[[noreturn, gnu::cold, gnu::noinline]] void refuseWaterGrid(const WaterGrid& grid, const char* caller, bool cell,
                                                            bool counts, bool origin, double farthest) {
  std::ostringstream m;
  m << caller << ": ";
  if (!cell)
    m << "WaterGrid::cellSize_m is " << grid.cellSize_m << " m: it must be positive and finite";
  else if (!counts)
    m << "WaterGrid::nodesU is " << grid.nodesU << " and nodesV " << grid.nodesV << ": they must be >= 0";
  else if (!origin)
    m << "WaterGrid::originI is " << grid.originI << " and originJ " << grid.originJ << ": they must lie within "
      << detail::kMaxGridIndex << " cells of 0";
  else
    m << "WaterGrid::cellSize_m is " << grid.cellSize_m << " m: the nodes " << farthest << " cells from the origin, "
      << farthest * grid.cellSize_m << " m, lie beyond " << detail::kMaxGridCoordinate_m << " m";
  throw std::invalid_argument(m.str());
}

/// checkGridVelocities' refusal (as refuseWaterGrid).
[[noreturn, gnu::cold, gnu::noinline]] void refuseGridVelocities(const GridVelocities& velocities, const char* caller) {
  for (std::size_t m = 0; m < velocities.depths_m.size(); ++m)
    if (!(velocities.depths_m[m] >= 0 && std::isfinite(velocities.depths_m[m]))) {
      std::ostringstream s;
      s << caller << ": GridVelocities::depths_m[" << m << "] is " << velocities.depths_m[m]
        << " m: each depth must be finite and >= 0";
      throw std::invalid_argument(s.str());
    }
  const GridWindow& w = velocities.window;
  if (w.firstU < 0 || w.firstV < 0 || w.nodesU < 0 || w.nodesV < 0) {
    std::ostringstream s;
    s << caller << ": GridVelocities::window is columns " << w.firstU << " + " << w.nodesU << ", rows " << w.firstV
      << " + " << w.nodesV << ": each must be >= 0";
    throw std::invalid_argument(s.str());
  }
  throw std::invalid_argument(std::string(caller) + ": GridVelocities::out is null but depths_m has " +
                              std::to_string(velocities.depths_m.size()) + " depths");
}

}  // namespace

double detail::checkWaterGrid(const WaterGrid& grid, const char* caller) {
  const bool cell = grid.cellSize_m > 0 && std::isfinite(grid.cellSize_m);
  const bool counts = grid.nodesU >= 0 && grid.nodesV >= 0;
  const bool origin = std::abs(double(grid.originI)) <= kMaxGridIndex &&
                      std::abs(double(grid.originJ)) <= kMaxGridIndex;
  const double farthest = std::max({std::abs(double(grid.originI) + grid.nodesU),
                                    std::abs(double(grid.originJ) + grid.nodesV), std::abs(double(grid.originI)),
                                    std::abs(double(grid.originJ))});
  const bool reach = farthest * grid.cellSize_m <= kMaxGridCoordinate_m;
  if (cell && counts && origin && reach) return farthest;  // the message only when one fails: no allocation per query
  refuseWaterGrid(grid, caller, cell, counts, origin, farthest);
}

void detail::checkGridVelocities(const GridVelocities& velocities, const char* caller) {
  // Each depth finite and >= 0 (a NaN fails the comparison, an infinity the bound).
  bool depths = true;
  for (const double depth_m : velocities.depths_m)
    depths = depths && depth_m >= 0 && depth_m <= std::numeric_limits<double>::max();
  const GridWindow& w = velocities.window;
  const bool window = (w.firstU | w.firstV | w.nodesU | w.nodesV) >= 0;  // no sign bit among them
  if (depths && window && (velocities.depths_m.empty() || velocities.out != nullptr)) return;
  refuseGridVelocities(velocities, caller);
}

bool WaterSurface::gridHeights(const WaterGrid&, double, btScalar*) const { return false; }

bool WaterSurface::gridHeightsAndVelocities(const WaterGrid&, const GridVelocities&, double, btScalar*) const {
  return false;
}

FunctionSurface::FunctionSurface(HeightFunction height) : height_(std::move(height)) {
  if (!height_) throw std::invalid_argument("keel::FunctionSurface: the height function is empty");
}

btScalar FunctionSurface::height(btScalar u_m, btScalar v_m, double t_s) const { return height_(u_m, v_m, t_s); }

bool WaterFrame::fromGravity(const btVector3& gravity_mps2, WaterFrame& frame) {
  const btScalar g = gravity_mps2.length();
  if (!(g > 0) || !std::isfinite(g)) return false;
  WaterFrame f;
  f.up = -gravity_mps2 / g;
  // The two world axes other than the one most aligned with up, in index
  // order, give (x, z) for y-up and (x, y) for z-up, the user's convention.
  const int dominant = f.up.absolute().maxAxis();
  const int first = dominant == 0 ? 1 : 0;
  const int second = dominant == 2 ? 1 : 2;
  btVector3 a(0, 0, 0), b(0, 0, 0);
  a[first] = 1;
  b[second] = 1;
  // Gram-Schmidt keeps the frame orthonormal when gravity is not axis-aligned;
  // for an axis-aligned gravity it returns the world axes exactly.
  f.east = (a - f.up * a.dot(f.up)).normalized();
  f.north = (b - f.up * b.dot(f.up) - f.east * b.dot(f.east)).normalized();
  frame = f;
  return true;
}

}  // namespace keel::KEEL_ABI

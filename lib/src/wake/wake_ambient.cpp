// keel::WakeField's grid queries over an ambient surface with no grid
// query of its own (a user's swell, flat water): its heights and
// velocities asked at the grid's nodes as points (the velocities at the
// nodes of the query's window alone), as it answers them best.

#include <keel/surface_authoring.hpp>

#include "grow.hpp"
#include "wake/wake_grid.hpp"
#include "water/grid_check.hpp"
#include "water/grid_points.hpp"

#include <algorithm>
#include <vector>

namespace keel::KEEL_ABI::detail {
namespace {

/// This thread's grow-only working memory: the nodes' coordinates (and
/// the depths' heights) as points, and their velocities.
struct PointScratch {
  std::vector<btScalar> u_m, v_m, w_m;
  std::vector<WaterVelocity> velocity;  ///< the window's answers, row after row
};

PointScratch& threadPoints() {
  thread_local PointScratch scratch;
  return scratch;
}

/// The ambient surface's heights at the nodes when it has no grid query:
/// one height for level water, else its heights() at the nodes.
void ambientHeightsAtNodes(const WaterSurface& ambient, const WaterGrid& grid, double t_s, btScalar* out_m) {
  const std::size_t nodes = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  if (ambient.heightIsUniform()) {
    std::fill_n(out_m, nodes, ambient.height(grid.u_m(0), grid.v_m(0), t_s));
    return;
  }
  PointScratch& s = threadPoints();
  growTo(s.u_m, nodes);
  growTo(s.v_m, nodes);
  gridNodePoints(grid, NodeOrder::Rows, s.u_m.data(), s.v_m.data());
  ambient.heights(s.u_m.data(), s.v_m.data(), nodes, t_s, out_m);
}

/// The ambient surface's velocities at the window's nodes' depths when it
/// has no grid query with velocities: its velocities() at each of them.
void ambientVelocitiesAtNodes(const WaterSurface& ambient, const WaterGrid& grid, const GridVelocities& velocities,
                              double t_s, const btScalar* heights_m) {
  const GridWindow window = wantedWindow(velocities, grid);
  const std::size_t levels = velocities.depths_m.size(), nodesU = std::size_t(window.nodesU);
  const std::size_t points = nodesU * std::size_t(window.nodesV) * levels;
  PointScratch& s = threadPoints();
  for (std::vector<btScalar>* v : {&s.u_m, &s.v_m, &s.w_m}) growTo(*v, points);
  for (int j = 0; j < window.nodesV; ++j)
    for (int i = 0; i < window.nodesU; ++i) {
      const int u = window.firstU + i, v = window.firstV + j;
      const std::size_t node = std::size_t(v) * std::size_t(grid.nodesU) + std::size_t(u);
      for (std::size_t m = 0; m < levels; ++m) {
        const std::size_t at = (std::size_t(j) * nodesU + std::size_t(i)) * levels + m;
        s.u_m[at] = grid.u_m(u);
        s.v_m[at] = grid.v_m(v);
        s.w_m[at] = btScalar(double(heights_m[node]) - velocities.depths_m[m]);
      }
    }
  // One batch, then each of the window's rows to its place.
  growTo(s.velocity, points);
  ambient.velocities(s.u_m.data(), s.v_m.data(), s.w_m.data(), points, t_s, s.velocity.data());
  const std::size_t row = nodesU * levels;
  for (int j = 0; j < window.nodesV; ++j) {
    const std::size_t node = std::size_t(window.firstV + j) * std::size_t(grid.nodesU) + std::size_t(window.firstU);
    std::copy_n(s.velocity.begin() + std::ptrdiff_t(std::size_t(j) * row), row, velocities.out + node * levels);
  }
}

}  // namespace

std::optional<WaterVelocity> ambientGrid(const WaterSurface& ambient, const WaterGrid& grid,
                                         const GridVelocities& velocities, double t_s, btScalar* heights_out_m) {
  if (ambient.gridHeightsAndVelocities(grid, velocities, t_s, heights_out_m)) return std::nullopt;
  if (!ambient.gridHeights(grid, t_s, heights_out_m)) ambientHeightsAtNodes(ambient, grid, t_s, heights_out_m);
  if (velocities.out == nullptr || velocities.depths_m.empty()) return std::nullopt;
  if (ambient.velocityIsUniform()) return ambient.velocity(grid.u_m(0), grid.v_m(0), heights_out_m[0], t_s);
  ambientVelocitiesAtNodes(ambient, grid, velocities, t_s, heights_out_m);
  return std::nullopt;
}

}  // namespace keel::KEEL_ABI::detail

// keel::WakeField's grid queries, the ones a boat's water patch asks: the
// ambient surface's grid plus the field at the nodes. The field is
// interpolated as the point queries interpolate it (bilinearly in space,
// linearly in time between the update's two tiles: docs/wakes.md,
// "Queries"), a row of nodes at a time: each row first blends the two rows
// of the tiles it lies between, once per column of the field's nodes, and
// each node then interpolates along that blended row. A node costs a few
// multiplications per band, and each band's decay with depth is one
// exponential per depth for the whole grid.
#include <keel/surface_authoring.hpp>

#include "wake/wake_data.hpp"
#include "wake/wake_grid.hpp"
#include "wake/wake_query.hpp"
#include "water/query_costs.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace keel::KEEL_ABI {
namespace detail {
namespace {

static_assert(sizeof(WaterVelocity) == 3 * sizeof(btScalar), "the depths' kernel writes WaterVelocity as btScalars");

/// Where a column (or a row) of a grid's nodes lies in a tile: the field's
/// node before it along the axis, its place in that cell (0 to 1), and
/// whether it lies in the window (as bilinearNodes places a point).
struct AxisPlace {
  int cell = 0;
  btScalar f = 0;
  bool inside = false;
};

/// The first and last cells of an axis's places inside the window (none
/// when first > last).
struct AxisSpan {
  int first = 0, last = -1;
};

/// This thread's grow-only working memory for the grid queries.
struct GridScratch {
  std::vector<AxisPlace> columns, rows;
  std::vector<std::size_t> fieldColumn;  ///< per column of a blended row: the field's node column
  /// A blended row, per field column: the elevation, the potential, the
  /// potential's difference to the next row, the elevation's rate.
  std::vector<btScalar> rowHeight, rowPotential, rowRise, rowRate;
  std::vector<btScalar> height;  ///< per node: the field's elevation [m]
  /// Per node and band: the potential's gradient and the elevation's rate
  /// (WakeDepthJob::band) [m/s].
  std::vector<btScalar> band;
  std::vector<btScalar> decay;   ///< WakeDepthJob::decay
  std::vector<btScalar> depths;  ///< WakeDepthJob::scratch
  /// The nodes' coordinates (and depths' heights), for an ambient surface
  /// with no grid query.
  std::vector<btScalar> u_m, v_m, w_m;
};

GridScratch& threadScratch() {
  thread_local GridScratch scratch;
  return scratch;
}

template <class T>
void sizeAtLeast(std::vector<T>& v, std::size_t count) {
  if (v.size() < count) v.resize(count);
}

/// The places of `count` nodes at coordinates `at(i)` [m] along an axis
/// whose field node 0 lies at `edge_m` [m].
template <class At>
AxisSpan placeAxis(const WakeFieldData& d, double edge_m, int count, At at, std::vector<AxisPlace>& out) {
  sizeAtLeast(out, std::size_t(count));
  AxisSpan span{d.n, -1};
  for (int i = 0; i < count; ++i) {
    AxisPlace& p = out[std::size_t(i)];
    const double x = (double(at(i)) - edge_m) / d.cell_m;
    p.inside = x >= 0 && x < d.n;  // NaN too
    if (!p.inside) continue;
    p.cell = std::min(int(x), d.n - 1);
    p.f = btScalar(x - p.cell);
    span.first = std::min(span.first, p.cell);
    span.last = std::max(span.last, p.cell);
  }
  return span;
}

/// Two tiles blended: the field is `weightA A + weightB B`, the elevation's
/// rate `rateA A + rateB B` (both the same tile, with its weight alone,
/// when the window moved between them).
struct TileBlend {
  const WakeTiles* a;
  const WakeTiles* b;
  btScalar weightA, weightB, rateA, rateB;
};

/// The tiles' rows `row0` and `row1` (offsets of their first nodes) blended
/// in time and interpolated at `r` between them, over the field columns
/// `s.fieldColumn[0..count)`: the bands' summed elevation into
/// `s.rowHeight`.
void blendHeights(const TileBlend& t, std::size_t row0, std::size_t row1, const AxisPlace& r, std::size_t count,
                  GridScratch& s) {
  const btScalar fy = r.f, gy = 1 - fy;
  const float *a = t.a->height_m.data(), *b = t.b->height_m.data();
  for (std::size_t c = 0; c < count; ++c) {
    const std::size_t k0 = row0 + s.fieldColumn[c], k1 = row1 + s.fieldColumn[c];
    s.rowHeight[c] = gy * (t.weightA * a[k0] + t.weightB * b[k0]) + fy * (t.weightA * a[k1] + t.weightB * b[k1]);
  }
}

/// The same for band `band` (offset `offset` in the band tiles): its
/// potential, the potential's rise to the next row, and its elevation's rate.
void blendBand(const TileBlend& t, std::size_t offset, std::size_t row0, std::size_t row1, const AxisPlace& r,
               std::size_t count, GridScratch& s) {
  const btScalar fy = r.f, gy = 1 - fy;
  const float *ha = t.a->bandHeight_m.data() + offset, *hb = t.b->bandHeight_m.data() + offset;
  const float *fa = t.a->bandPotential_m2ps.data() + offset, *fb = t.b->bandPotential_m2ps.data() + offset;
  for (std::size_t c = 0; c < count; ++c) {
    const std::size_t k0 = row0 + s.fieldColumn[c], k1 = row1 + s.fieldColumn[c];
    const btScalar f0 = t.weightA * fa[k0] + t.weightB * fb[k0], f1 = t.weightA * fa[k1] + t.weightB * fb[k1];
    s.rowPotential[c] = gy * f0 + fy * f1;
    s.rowRise[c] = f1 - f0;
    s.rowRate[c] = gy * (t.rateA * ha[k0] + t.rateB * hb[k0]) + fy * (t.rateA * ha[k1] + t.rateB * hb[k1]);
  }
}

/// The field of `t` added at every node of `grid` inside its window: the
/// summed elevation into `s.height`, and with `velocities`, each band's
/// potential gradient and elevation rate into `s.band`.
void addTiles(const WakeFieldData& d, const WaterGrid& grid, const TileBlend& t, bool velocities, GridScratch& s) {
  const AxisSpan cols = placeAxis(
      d, t.a->westEdge_m, grid.nodesU, [&](int i) { return grid.u_m(i); }, s.columns);
  const AxisSpan rows = placeAxis(
      d, t.a->southEdge_m, grid.nodesV, [&](int j) { return grid.v_m(j); }, s.rows);
  if (cols.first > cols.last || rows.first > rows.last) return;
  // The field's columns the nodes read: their cells and the next ones,
  // periodic (the window's last column's next is its first).
  const std::size_t n = std::size_t(d.n), count = std::size_t(cols.last - cols.first) + 2;
  for (std::vector<btScalar>* v : {&s.rowHeight, &s.rowPotential, &s.rowRise, &s.rowRate}) sizeAtLeast(*v, count);
  sizeAtLeast(s.fieldColumn, count);
  for (std::size_t c = 0; c < count; ++c) s.fieldColumn[c] = (std::size_t(cols.first) + c) % n;
  const auto perCell = btScalar(1 / d.cell_m);
  const std::size_t bands = velocities ? std::size_t(d.bands) : 0;
  for (int j = 0; j < grid.nodesV; ++j) {
    const AxisPlace& r = s.rows[std::size_t(j)];
    if (!r.inside) continue;
    const std::size_t row0 = std::size_t(r.cell) * n, row1 = (std::size_t(r.cell) + 1) % n * n;
    const std::size_t first = std::size_t(j) * std::size_t(grid.nodesU);
    blendHeights(t, row0, row1, r, count, s);
    for (int i = 0; i < grid.nodesU; ++i) {
      const AxisPlace& c = s.columns[std::size_t(i)];
      if (!c.inside) continue;
      const std::size_t k = std::size_t(c.cell - cols.first);
      s.height[first + std::size_t(i)] += (1 - c.f) * s.rowHeight[k] + c.f * s.rowHeight[k + 1];
    }
    for (std::size_t b = 0; b < bands; ++b) {
      blendBand(t, b * d.nodes(), row0, row1, r, count, s);
      for (int i = 0; i < grid.nodesU; ++i) {
        const AxisPlace& c = s.columns[std::size_t(i)];
        if (!c.inside) continue;
        const std::size_t k = std::size_t(c.cell - cols.first);
        const btScalar fx = c.f, gx = 1 - fx;
        btScalar* out = s.band.data() + ((first + std::size_t(i)) * bands + b) * 3;
        out[0] += (s.rowPotential[k + 1] - s.rowPotential[k]) * perCell;
        out[1] += (gx * s.rowRise[k] + fx * s.rowRise[k + 1]) * perCell;
        out[2] += gx * s.rowRate[k] + fx * s.rowRate[k + 1];
      }
    }
  }
}

/// The field at every node of `grid` at time t: its elevation into
/// `heights_m` (added) and, for each of `depths_m`, its velocity into
/// `velocity` (added; null: heights alone).
void addField(const WakeFieldData& d, const WaterGrid& grid, std::span<const double> depths_m, double t_s,
              btScalar* heights_m, WaterVelocity* velocity) {
  GridScratch& s = threadScratch();
  const std::size_t nodes = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  const bool velocities = velocity != nullptr && !depths_m.empty();
  const std::size_t bands = std::size_t(d.bands), perBand = velocities ? nodes * bands * 3 : 0;
  sizeAtLeast(s.height, nodes);
  std::fill_n(s.height.begin(), nodes, btScalar(0));
  sizeAtLeast(s.band, perBand);
  std::fill_n(s.band.begin(), perBand, btScalar(0));
  const double alpha = endWeight(d, t_s), span = d.to().time_s - d.from().time_s;
  const auto rate = btScalar(span > 0 ? 1 / span : 0), end = btScalar(alpha), start = btScalar(1 - alpha);
  const WakeTiles &from = d.from(), &to = d.to();
  if (from.westEdge_m == to.westEdge_m && from.southEdge_m == to.southEdge_m) {
    addTiles(d, grid, {&from, &to, start, end, -rate, rate}, velocities, s);
  } else {
    addTiles(d, grid, {&from, &from, start, 0, -rate, 0}, velocities, s);
    addTiles(d, grid, {&to, &to, end, 0, rate, 0}, velocities, s);
  }
  for (std::size_t node = 0; node < nodes; ++node) heights_m[node] += s.height[node];
  if (!velocities) return;
  // Every node's depths are the same below its own surface: each band's
  // decay at each depth once for the whole grid.
  const std::size_t levels = depths_m.size(), padded = wakeGridPadded(levels);
  sizeAtLeast(s.decay, bands * padded);
  std::array<double, kMaxDepthBands> decay{};
  for (std::size_t m = 0; m < padded; ++m) {
    if (m < levels) bandDecays(d, -depths_m[m], decay.data());
    for (std::size_t b = 0; b < bands; ++b) s.decay[b * padded + m] = m < levels ? btScalar(decay[b]) : btScalar(0);
  }
  sizeAtLeast(s.depths, 3 * (nodes * levels + kWakeGridLanes));
  addWakeDepths({.nodes = nodes,
                 .depths = levels,
                 .bands = bands,
                 .band = s.band.data(),
                 .decay = s.decay.data(),
                 .scratch = s.depths.data(),
                 .out = &velocity[0].east_mps});  // WaterVelocity: three btScalars
}

/// The ambient surface's heights at the nodes when it has no grid query:
/// one height for level water, else its heights() at the nodes.
void ambientHeightsAtNodes(const WaterSurface& ambient, const WaterGrid& grid, double t_s, btScalar* out_m) {
  const std::size_t nodes = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  if (ambient.heightIsUniform()) {
    std::fill_n(out_m, nodes, ambient.height(grid.u_m(0), grid.v_m(0), t_s));
    return;
  }
  GridScratch& s = threadScratch();
  sizeAtLeast(s.u_m, nodes);
  sizeAtLeast(s.v_m, nodes);
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) {
      const std::size_t node = std::size_t(j) * std::size_t(grid.nodesU) + std::size_t(i);
      s.u_m[node] = grid.u_m(i);
      s.v_m[node] = grid.v_m(j);
    }
  ambient.heights(s.u_m.data(), s.v_m.data(), nodes, t_s, out_m);
}

/// The ambient surface's velocities at the nodes' depths when it has no
/// grid query with velocities: its one velocity when it is the same
/// everywhere, else its velocities() at every node and depth.
void ambientVelocitiesAtNodes(const WaterSurface& ambient, const WaterGrid& grid, const GridVelocities& velocities,
                              double t_s, const btScalar* heights_m) {
  const std::size_t nodes = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  const std::size_t levels = velocities.depths_m.size(), points = nodes * levels;
  if (ambient.velocityIsUniform()) {
    std::fill_n(velocities.out, points, ambient.velocity(grid.u_m(0), grid.v_m(0), heights_m[0], t_s));
    return;
  }
  GridScratch& s = threadScratch();
  for (std::vector<btScalar>* v : {&s.u_m, &s.v_m, &s.w_m}) sizeAtLeast(*v, points);
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) {
      const std::size_t node = std::size_t(j) * std::size_t(grid.nodesU) + std::size_t(i);
      for (std::size_t m = 0; m < levels; ++m) {
        const std::size_t at = node * levels + m;
        s.u_m[at] = grid.u_m(i);
        s.v_m[at] = grid.v_m(j);
        s.w_m[at] = btScalar(double(heights_m[node]) - velocities.depths_m[m]);
      }
    }
  ambient.velocities(s.u_m.data(), s.v_m.data(), s.w_m.data(), points, t_s, velocities.out);
}

/// The ambient surface's grid with velocities; or, when it has none, its
/// heights at the nodes and its velocities at their depths, asked as it
/// answers them best.
void ambientGrid(const WaterSurface& ambient, const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                 btScalar* heights_out_m) {
  if (ambient.gridHeightsAndVelocities(grid, velocities, t_s, heights_out_m)) return;
  if (!ambient.gridHeights(grid, t_s, heights_out_m)) ambientHeightsAtNodes(ambient, grid, t_s, heights_out_m);
  if (velocities.out != nullptr && !velocities.depths_m.empty())
    ambientVelocitiesAtNodes(ambient, grid, velocities, t_s, heights_out_m);
}

}  // namespace
}  // namespace detail

bool WakeField::gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const {
  detail::requireFiniteTime(t_s);
  const detail::WakeFieldData& d = *data_;
  // With no grid of the ambient surface's own, gridHeightsAndVelocities
  // answers: a boat's patch asks it next, with its history, which the
  // ambient surface may want (a Gerstner sea starts its solves from it).
  if (!d.ambient->gridHeights(grid, t_s, out_m)) return false;
  detail::addField(d, grid, {}, t_s, out_m, nullptr);
  return true;
}

bool WakeField::gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                         btScalar* heights_out_m) const {
  detail::requireFiniteTime(t_s);
  const detail::WakeFieldData& d = *data_;
  detail::ambientGrid(*d.ambient, grid, velocities, t_s, heights_out_m);
  detail::addField(d, grid, velocities.depths_m, t_s, heights_out_m, velocities.out);
  return true;
}

QueryCost WakeField::queryCost() const {
  const WaterSurface& ambient = *data_->ambient;
  QueryCost c = ambient.queryCost();
  // The field's own, measured over flat water with two bands
  // (keel_bench_query_cost's kWakeFieldTwoBands): its heights read the
  // bands' sum, its velocities each band.
  const QueryCost& f = detail::kWakeFieldTwoBands;
  const double bands = double(data_->bands) / 2;
  c.height_ns += f.height_ns;
  c.gridNode_ns += f.gridNode_ns;
  c.velocity_ns += f.velocity_ns * bands;
  c.heightAndVelocity_ns += f.heightAndVelocity_ns * bands;
  // The ambient surface's velocities at the nodes: its grid's, its one
  // velocity, or its point queries at every node and depth.
  const bool grid = c.gridNodeVelocity_ns > 0;
  const double ambientNode_ns = grid || ambient.velocityIsUniform() ? c.gridNodeVelocity_ns : c.velocity_ns;
  const double ambientSurface_ns = !grid                              ? ambientNode_ns
                                   : c.gridNodeSurfaceVelocity_ns > 0 ? c.gridNodeSurfaceVelocity_ns
                                                                      : c.gridNodeVelocity_ns;
  c.gridNodeVelocity_ns = ambientNode_ns + f.gridNodeVelocity_ns * bands;
  c.gridNodeSurfaceVelocity_ns = ambientSurface_ns + f.gridNodeSurfaceVelocity_ns * bands;
  return c;
}

}  // namespace keel::KEEL_ABI

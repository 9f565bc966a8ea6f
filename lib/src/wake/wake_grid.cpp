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

#include "grow.hpp"
#include "wake/wake_data.hpp"
#include "wake/wake_grid.hpp"
#include "wake/wake_query.hpp"
#include "water/grid_check.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

namespace keel::KEEL_ABI {
namespace detail {
namespace {

static_assert(sizeof(WaterVelocity) == 3 * sizeof(btScalar), "the depths' kernel writes WaterVelocity as btScalars");

/// Where a grid's columns (or rows) of nodes lie in a tile, as
/// bilinearNodes places a point: each one's cell (the field's node before
/// it, counted from `first`, the lowest any of them lies in) and the
/// weights of that node and the next; those outside the window weigh 0.
struct AxisPlaces {
  std::vector<std::size_t> cell;
  std::vector<btScalar> near, far, inside;  ///< `1 - f`, `f` (f the place in the cell), and 1 (0 outside)
  int first = 0, last = -1;                 ///< the lowest and highest cells inside (none: first > last)
  bool unitStride = false;                  ///< every node inside, each in the cell after the last's
  [[nodiscard]] bool empty() const { return first > last; }
};

/// This thread's grow-only working memory for the grid queries.
struct GridScratch {
  AxisPlaces columns, rows;
  /// A blended row, per field column from the columns' first cell: the
  /// elevation, the potential, the potential's difference to the next
  /// row, the elevation's rate.
  std::vector<btScalar> rowHeight, rowPotential, rowRise, rowRate;
  std::vector<btScalar> height;  ///< per node: the field's elevation [m]
  /// The nodes whose velocities are asked (GridVelocities::window, within
  /// the grid), and WakeDepthJob::band: each band's potential gradient and
  /// elevation rate at them [m/s], window row after row.
  GridWindow window;
  std::vector<btScalar> band;
  DepthDecays decays;            ///< WakeDepthJob::decay
  std::vector<btScalar> depths;  ///< WakeDepthJob::scratch
};

GridScratch& threadScratch() {
  thread_local GridScratch scratch;
  return scratch;
}

/// Where a node at `at_m` [m] lies along an axis whose field node 0 lies
/// at `edge_m` [m], in field cells (placeAxis, onFieldNodes).
inline double fieldPlace(const WakeFieldData& d, double edge_m, btScalar at_m) {
  return (double(at_m) - edge_m) / d.cell_m;
}

/// Whether `count` nodes at coordinates `at(i)` [m] along an axis whose
/// field node 0 lies at `edge_m` [m] lie on the field's nodes `first`,
/// `first + 1`, ..., all inside the window and not its last (placeAxis
/// would place them in contiguous cells, each at its cell's start, the
/// node after the last not wrapped): then the grid reads them directly.
template <class At>
bool onFieldNodes(const WakeFieldData& d, double edge_m, int count, At at, int& first) {
  for (int i = 0; i < count; ++i) {
    const double x = fieldPlace(d, edge_m, at(i));
    if (!(x >= 0 && x < d.n)) return false;  // NaN too
    const int cell = std::min(int(x), d.n - 1);
    if (i == 0) first = cell;
    if (cell != first + i || btScalar(x - cell) != 0) return false;
  }
  return count > 0 && first + count < d.n;
}

/// The places of `count` nodes at coordinates `at(i)` [m] along an axis
/// whose field node 0 lies at `edge_m` [m].
template <class At>
void placeAxis(const WakeFieldData& d, double edge_m, int count, At at, AxisPlaces& out) {
  const auto size = std::size_t(count);
  growTo(out.cell, size);
  for (std::vector<btScalar>* v : {&out.near, &out.far, &out.inside}) growTo(*v, size);
  out.first = d.n;
  out.last = -1;
  for (std::size_t i = 0; i < size; ++i) {
    const double x = fieldPlace(d, edge_m, at(int(i)));
    const bool inside = x >= 0 && x < d.n;  // NaN too
    const int cell = inside ? std::min(int(x), d.n - 1) : 0;
    const auto f = btScalar(x - cell);
    out.cell[i] = std::size_t(cell);
    out.near[i] = inside ? 1 - f : 0;
    out.far[i] = inside ? f : 0;
    out.inside[i] = inside ? 1 : 0;
    if (!inside) continue;
    out.first = std::min(out.first, cell);
    out.last = std::max(out.last, cell);
  }
  out.unitStride = !out.empty();
  const std::size_t start = out.cell[0];
  for (std::size_t i = 0; i < size; ++i) {
    out.unitStride = out.unitStride && out.inside[i] != 0 && out.cell[i] == start + i;
    out.cell[i] = out.inside[i] != 0 ? out.cell[i] - std::size_t(out.first) : 0;
  }
}

/// Two tiles blended: the field is `weightA A + weightB B`, the elevation's
/// rate `rateA A + rateB B` (both the same tile, with its weight alone,
/// when the window moved between them).
struct TileBlend {
  const WakeTiles* a;
  const WakeTiles* b;
  btScalar weightA, weightB, rateA, rateB;
};

/// Where a row of nodes reads the tiles: the offsets of the two rows of
/// field nodes it lies between, its weights for each, and the run of
/// field columns it reads.
struct RowRead {
  std::size_t row0, row1;
  btScalar near, far;
  std::size_t column, count;  ///< the run's first field column and length, in the window (no wrap)
  std::size_t at;             ///< the run's place in the blended row
};

// The loops below take their arrays as restrict parameters: none
// overlaps another, and the compiler then vectorises them without checking.
#define KEEL_NOALIAS __restrict

/// The run of a row's summed elevation, blended in time (`wa A + wb B`) and
/// between the rows (`near` row 0, `far` row 1).
void blendHeights(std::size_t count, const float* KEEL_NOALIAS a0, const float* KEEL_NOALIAS a1,
                  const float* KEEL_NOALIAS b0, const float* KEEL_NOALIAS b1, btScalar wa, btScalar wb, btScalar near,
                  btScalar far, btScalar* KEEL_NOALIAS out) {
  for (std::size_t c = 0; c < count; ++c) out[c] = near * (wa * a0[c] + wb * b0[c]) + far * (wa * a1[c] + wb * b1[c]);
}

/// Tiles A and B's rows 0 and 1 of one band (elevation h, potential f).
struct BandRows {
  const float *ha0, *ha1, *hb0, *hb1, *fa0, *fa1, *fb0, *fb1;
};

/// The same for a band: its potential, the potential's rise to row 1, and
/// its elevation's rate (`ra A + rb B`).
void blendBand(std::size_t count, const BandRows& in, const TileBlend& t, btScalar near, btScalar far,
               btScalar* KEEL_NOALIAS potential, btScalar* KEEL_NOALIAS rise, btScalar* KEEL_NOALIAS rate) {
  const float *KEEL_NOALIAS fa0 = in.fa0, *KEEL_NOALIAS fa1 = in.fa1, *KEEL_NOALIAS fb0 = in.fb0,
                            *KEEL_NOALIAS fb1 = in.fb1, *KEEL_NOALIAS ha0 = in.ha0, *KEEL_NOALIAS ha1 = in.ha1,
                            *KEEL_NOALIAS hb0 = in.hb0, *KEEL_NOALIAS hb1 = in.hb1;
  const btScalar wa = t.weightA, wb = t.weightB, ra = t.rateA, rb = t.rateB;
  for (std::size_t c = 0; c < count; ++c) {
    const btScalar f0 = wa * fa0[c] + wb * fb0[c], f1 = wa * fa1[c] + wb * fb1[c];
    potential[c] = near * f0 + far * f1;
    rise[c] = f1 - f0;
    rate[c] = near * (ra * ha0[c] + rb * hb0[c]) + far * (ra * ha1[c] + rb * hb1[c]);
  }
}

/// The blended row of one run of field columns (`r`): the elevation, or
/// band `band`'s planes (band < 0: the elevation).
void blendRun(const TileBlend& t, const RowRead& r, int band, std::size_t bandOffset, GridScratch& s) {
  if (r.count == 0) return;
  const std::size_t at0 = r.row0 + r.column, at1 = r.row1 + r.column;
  if (band < 0) {
    const float *a = t.a->height_m.data(), *b = t.b->height_m.data();
    blendHeights(r.count, a + at0, a + at1, b + at0, b + at1, t.weightA, t.weightB, r.near, r.far,
                 s.rowHeight.data() + r.at);
    return;
  }
  const float *ha = t.a->bandHeight_m.data() + bandOffset, *hb = t.b->bandHeight_m.data() + bandOffset;
  const float *fa = t.a->bandPotential_m2ps.data() + bandOffset, *fb = t.b->bandPotential_m2ps.data() + bandOffset;
  blendBand(r.count, {ha + at0, ha + at1, hb + at0, hb + at1, fa + at0, fa + at1, fb + at0, fb + at1}, t, r.near, r.far,
            s.rowPotential.data() + r.at, s.rowRise.data() + r.at, s.rowRate.data() + r.at);
}

/// Nodes in contiguous cells: node i's elevation from the blended row's
/// cells i and i + 1 (`h` from the first node's cell), added to `out`.
void heightsAlong(std::size_t count, const btScalar* KEEL_NOALIAS near, const btScalar* KEEL_NOALIAS far,
                  const btScalar* KEEL_NOALIAS h, btScalar* KEEL_NOALIAS out) {
  for (std::size_t i = 0; i < count; ++i) out[i] += near[i] * h[i] + far[i] * h[i + 1];
}

/// The blended row of a band, from the first node's cell.
struct BandRow {
  const btScalar *potential, *rise, *rate;
};

/// The same for a band, the nodes from `first`: its potential gradient and
/// elevation rate, added to `east`, `north`, `up`.
void bandAlong(std::size_t first, std::size_t count, const AxisPlaces& c, const BandRow& row, btScalar perCell,
               btScalar* KEEL_NOALIAS east, btScalar* KEEL_NOALIAS north, btScalar* KEEL_NOALIAS up) {
  const btScalar *KEEL_NOALIAS near = c.near.data() + first, *KEEL_NOALIAS far = c.far.data() + first,
                               *KEEL_NOALIAS inside = c.inside.data() + first, *KEEL_NOALIAS f = row.potential,
                               *KEEL_NOALIAS rise = row.rise, *KEEL_NOALIAS rate = row.rate;
  for (std::size_t i = 0; i < count; ++i) {
    east[i] += inside[i] * (f[i + 1] - f[i]) * perCell;
    north[i] += (near[i] * rise[i] + far[i] * rise[i + 1]) * perCell;
    up[i] += near[i] * rate[i] + far[i] * rate[i + 1];
  }
}

/// The nodes `first`... of a row interpolated along the blended row
/// (added): their summed elevation into `height`, or, with `plane` not
/// null, the band's potential gradient and elevation rate into its planes
/// (east, north, up, `stride` apart).
void alongRow(const AxisPlaces& c, std::size_t first, std::size_t count, const GridScratch& s, btScalar perCell,
              btScalar* height, btScalar* plane, std::size_t stride) {
  if (c.unitStride) {  // contiguous cells, the common case: vectorised
    const std::size_t k = c.cell[first];
    if (plane == nullptr)
      heightsAlong(count, c.near.data() + first, c.far.data() + first, s.rowHeight.data() + k, height);
    else
      bandAlong(first, count, c, {s.rowPotential.data() + k, s.rowRise.data() + k, s.rowRate.data() + k}, perCell,
                plane, plane + stride, plane + 2 * stride);
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {  // each node its own cell
    const std::size_t k = c.cell[first + i];
    const btScalar near = c.near[first + i], far = c.far[first + i];
    if (plane == nullptr) {
      height[i] += near * s.rowHeight[k] + far * s.rowHeight[k + 1];
      continue;
    }
    plane[i] += c.inside[first + i] * (s.rowPotential[k + 1] - s.rowPotential[k]) * perCell;
    plane[stride + i] += (near * s.rowRise[k] + far * s.rowRise[k + 1]) * perCell;
    plane[2 * stride + i] += near * s.rowRate[k] + far * s.rowRate[k + 1];
  }
}

/// A band at a row of nodes on the field's own nodes (onFieldNodes),
/// from its field row 0 and the next (1): addTiles' arithmetic with the
/// weights of 0 and 1 left out, which gives the same bits (the zeros they
/// add only turn a -0 into a +0, and the sums start from +0).
void bandOnNodes(std::size_t count, const BandRows& in, const TileBlend& t, btScalar perCell,
                 btScalar* KEEL_NOALIAS east, btScalar* KEEL_NOALIAS north, btScalar* KEEL_NOALIAS up) {
  const float *KEEL_NOALIAS fa0 = in.fa0, *KEEL_NOALIAS fa1 = in.fa1, *KEEL_NOALIAS fb0 = in.fb0,
                            *KEEL_NOALIAS fb1 = in.fb1, *KEEL_NOALIAS ha0 = in.ha0, *KEEL_NOALIAS hb0 = in.hb0;
  const btScalar wa = t.weightA, wb = t.weightB, ra = t.rateA, rb = t.rateB;
  for (std::size_t i = 0; i < count; ++i) {
    const btScalar f = wa * fa0[i] + wb * fb0[i], fEast = wa * fa0[i + 1] + wb * fb0[i + 1];
    const btScalar fNorth = wa * fa1[i] + wb * fb1[i];
    east[i] += (fEast - f) * perCell;
    north[i] += (fNorth - f) * perCell;
    up[i] += ra * ha0[i] + rb * hb0[i];
  }
}

/// addTiles for a grid on the field's own nodes along both axes, from
/// field node (`column`, `row`): the elevation at every node, the bands at
/// the window's.
void addOnNodes(const WakeFieldData& d, const WaterGrid& grid, const TileBlend& t, std::size_t bands, GridScratch& s,
                btScalar perCell, std::size_t column, std::size_t row) {
  const std::size_t n = std::size_t(d.n), nodesU = std::size_t(grid.nodesU);
  for (std::size_t j = 0; j < std::size_t(grid.nodesV); ++j) {
    const std::size_t at = (row + j) * n + column;
    const float *a = t.a->height_m.data() + at, *b = t.b->height_m.data() + at;
    btScalar* height = s.height.data() + j * nodesU;
    for (std::size_t i = 0; i < nodesU; ++i) height[i] += t.weightA * a[i] + t.weightB * b[i];
  }
  const GridWindow& w = s.window;
  const std::size_t wu = std::size_t(w.nodesU), wv = std::size_t(w.nodesV), stride = wu * wv;
  for (std::size_t j = 0; j < wv && bands > 0; ++j) {
    const std::size_t at0 = (row + std::size_t(w.firstV) + j) * n + column + std::size_t(w.firstU), at1 = at0 + n;
    for (std::size_t band = 0; band < bands; ++band) {
      const std::size_t o = band * d.nodes();
      const float *ha = t.a->bandHeight_m.data() + o, *hb = t.b->bandHeight_m.data() + o;
      const float *fa = t.a->bandPotential_m2ps.data() + o, *fb = t.b->bandPotential_m2ps.data() + o;
      btScalar* plane = s.band.data() + 3 * band * stride + j * wu;
      bandOnNodes(wu, {ha + at0, ha + at1, hb + at0, hb + at1, fa + at0, fa + at1, fb + at0, fb + at1}, t, perCell,
                  plane, plane + stride, plane + 2 * stride);
    }
  }
}

/// The field of `t` added at every node of `grid` inside its window: the
/// summed elevation into `s.height`, and with `bands`, each band's
/// potential gradient and elevation rate at the nodes of `s.window` into
/// `s.band`.
void addTiles(const WakeFieldData& d, const WaterGrid& grid, const TileBlend& t, std::size_t bands, GridScratch& s) {
  const auto perCell = btScalar(1 / d.cell_m);
  const auto columnAt = [&](int i) { return grid.u_m(i); };
  const auto rowAt = [&](int j) { return grid.v_m(j); };
  // A boat's patch on the field's cells: the field's nodes read directly,
  // with no places worked out per node.
  int column = 0, row = 0;
  if (onFieldNodes(d, t.a->westEdge_m, grid.nodesU, columnAt, column) &&
      onFieldNodes(d, t.a->southEdge_m, grid.nodesV, rowAt, row)) {
    addOnNodes(d, grid, t, bands, s, perCell, std::size_t(column), std::size_t(row));
    return;
  }
  AxisPlaces &cols = s.columns, &rows = s.rows;
  placeAxis(d, t.a->westEdge_m, grid.nodesU, columnAt, cols);
  placeAxis(d, t.a->southEdge_m, grid.nodesV, rowAt, rows);
  if (cols.empty() || rows.empty()) return;
  // The field's columns the nodes read: their cells and the next ones,
  // periodic (the window's last column's next is its first): one run, or
  // two when they wrap.
  const std::size_t n = std::size_t(d.n), first = std::size_t(cols.first);
  const std::size_t count = std::size_t(cols.last - cols.first) + 2, straight = std::min(count, n - first);
  for (std::vector<btScalar>* v : {&s.rowHeight, &s.rowPotential, &s.rowRise, &s.rowRate}) growTo(*v, count);
  const std::size_t nodesU = std::size_t(grid.nodesU);
  const GridWindow& w = s.window;
  const std::size_t wu = std::size_t(w.nodesU), stride = wu * std::size_t(w.nodesV);
  for (std::size_t j = 0; j < std::size_t(grid.nodesV); ++j) {
    if (rows.inside[j] == 0) continue;
    const std::size_t row0 = (std::size_t(rows.first) + rows.cell[j]) * n, row1 = (row0 + n) % (n * n);
    RowRead runs[2] = {{row0, row1, rows.near[j], rows.far[j], first, straight, 0},
                       {row0, row1, rows.near[j], rows.far[j], 0, count - straight, straight}};
    for (const RowRead& r : runs) blendRun(t, r, -1, 0, s);
    alongRow(cols, 0, nodesU, s, perCell, s.height.data() + j * nodesU, nullptr, 0);
    if (!w.holds(w.firstU, int(j))) continue;  // no velocities asked in this row
    const std::size_t windowRow = (j - std::size_t(w.firstV)) * wu;
    for (std::size_t b = 0; b < bands; ++b) {
      for (const RowRead& r : runs) blendRun(t, r, int(b), b * d.nodes(), s);
      alongRow(cols, std::size_t(w.firstU), wu, s, perCell, nullptr, s.band.data() + 3 * b * stride + windowRow,
               stride);
    }
  }
}

/// The field at every node of `grid` at time t: its elevation into
/// `heights_m` (added) and, for each of `velocities.depths_m`, its velocity
/// at the nodes of `velocities.window` into `velocities.out`: added, or
/// with `uniform` (the ambient velocity the same everywhere, which the
/// nodes do not hold yet) added to it (no depths or no out: heights alone).
void addField(const WakeFieldData& d, const WaterGrid& grid, const GridVelocities& velocities, double t_s,
              btScalar* heights_m, const WaterVelocity* uniform) {
  GridScratch& s = threadScratch();
  const std::size_t nodes = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  const bool withVelocities = velocities.out != nullptr && !velocities.depths_m.empty();
  s.window = withVelocities ? wantedWindow(velocities, grid) : GridWindow{0, 0, 0, 0};
  const std::size_t windowNodes = std::size_t(s.window.nodesU) * std::size_t(s.window.nodesV);
  const std::size_t bands = windowNodes > 0 ? std::size_t(d.bands) : 0;
  growTo(s.height, nodes);
  std::fill_n(s.height.begin(), nodes, btScalar(0));
  growTo(s.band, 3 * bands * windowNodes);
  std::fill_n(s.band.begin(), 3 * bands * windowNodes, btScalar(0));
  const double alpha = endWeight(d, t_s), span = d.to().time_s - d.from().time_s;
  const auto rate = btScalar(span > 0 ? 1 / span : 0), end = btScalar(alpha), start = btScalar(1 - alpha);
  const WakeTiles &from = d.from(), &to = d.to();
  if (from.westEdge_m == to.westEdge_m && from.southEdge_m == to.southEdge_m) {
    addTiles(d, grid, {&from, &to, start, end, -rate, rate}, bands, s);
  } else {
    addTiles(d, grid, {&from, &from, start, 0, -rate, 0}, bands, s);
    addTiles(d, grid, {&to, &to, end, 0, rate, 0}, bands, s);
  }
  for (std::size_t node = 0; node < nodes; ++node) heights_m[node] += s.height[node];
  if (bands == 0) return;
  s.decays.update(d, velocities.depths_m, bands, wakeGridPadded(velocities.depths_m.size()));
  const std::size_t levels = velocities.depths_m.size();
  growTo(s.depths, 3 * (windowNodes * levels + kWakeGridLanes));
  const std::size_t firstNode = std::size_t(s.window.firstV) * std::size_t(grid.nodesU) + std::size_t(s.window.firstU);
  addWakeDepths({.nodesU = std::size_t(s.window.nodesU),
                 .nodesV = std::size_t(s.window.nodesV),
                 .depths = levels,
                 .bands = bands,
                 .band = s.band.data(),
                 .decay = s.decays.table.data(),
                 .scratch = s.depths.data(),
                 .out = &velocities.out[firstNode * levels].east_mps,  // WaterVelocity: three btScalars
                 .outRow = 3 * std::size_t(grid.nodesU) * levels,
                 .uniform = uniform != nullptr ? &uniform->east_mps : nullptr});
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
  detail::checkGridVelocities(velocities, "keel::WakeField::gridHeightsAndVelocities");
  const detail::WakeFieldData& d = *data_;
  const std::optional<WaterVelocity> uniform = detail::ambientGrid(*d.ambient, grid, velocities, t_s, heights_out_m);
  detail::addField(d, grid, velocities, t_s, heights_out_m, uniform ? &*uniform : nullptr);
  return true;
}

}  // namespace keel::KEEL_ABI

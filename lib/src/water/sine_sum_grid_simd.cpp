// SineSumSurface::gridHeights vectorised with Highway: the heights of a
// world-snapped grid of nodes (a boat's water patch) from separable
// phasors, one complex multiplication per node and component instead of a
// cosine. docs/waves.md, "Grids".

#include "water/fp_contract_off.hpp"  // first: before any Highway code

// Highway compiles this file once per instruction set: foreach_target.h
// includes it again for each, by this path from lib/src (on the library's
// private include path).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "water/sine_sum_grid_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include "math/round_up.hpp"
#include "water/wave_batch-inl.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace {

/// `x` [rad] reduced to [-pi, pi] when it is beyond kReducePhaseBeyond_rad
/// (exactly: std::remainder is exact), so that sinCos stays accurate however
/// far from the origin the grid lies.
[[nodiscard]] double reduced(double x_rad) {
  return std::abs(x_rad) <= kReducePhaseBeyond_rad ? x_rad : std::remainder(x_rad, 2 * std::numbers::pi);
}

/// A complex number per lane.
struct Phasor {
  V re, im;
};

[[nodiscard]] Phasor times(Phasor a, Phasor b) {
  return {hn::Sub(hn::Mul(a.re, b.re), hn::Mul(a.im, b.im)), hn::Add(hn::Mul(a.im, b.re), hn::Mul(a.re, b.im))};
}

static_assert(kLanes <= 64 / sizeof(double), "sineSumGridScratch sizes the tables for vectors of at most 64 bytes");

// The nodes' sums are in btScalar (float unless BT_USE_DOUBLE_PRECISION),
// with twice double's lanes: each a sum of products of unit phasors and
// amplitudes, rounded at each of the components' terms (docs/waves.md,
// "Grids", bounds it). The phases and the phasors' recurrences stay in
// double.
using T = btScalar;
using DT = hn::ScalableTag<T>;
using VT = hn::Vec<DT>;
inline constexpr std::size_t kScalarLanes = hn::MaxLanes(DT());
static_assert(kScalarLanes * sizeof(T) <= 64, "sineSumGridScratch sizes the tables for vectors of at most 64 bytes");

/// The grid's per-call tables in the caller's scratch: one lane per
/// component, padded to whole vectors with zero amplitudes; then the
/// nodes' tables in btScalar, each starting on 64 bytes. The tables that
/// do not change with the time (the columns', the rows' step, the velocity
/// weights) are the thread's GridMemo's.
struct GridTables {
  std::size_t components, componentsPadded, nodesUPadded;
  double* stepU;        // e^{i k_u cell}: re [componentsPadded], then im
  const double* stepV;  // e^{i k_v cell}
  double* row;          // a e^{i (k_v v_j + phi - omega t - k d.current t)} of the current row j
  double* firstColumn;  // e^{i k_u u_0}
  T* rowNow;            // row, rounded to btScalar for the current row's sums
  const T* column;      // e^{i k_u u_i}: re [c nodesUPadded + i] for c < components, then im
  const T* weight;      // omega e^{-k depth} d_u, d_v and 1 per level: [(3 level + axis) componentsPadded + c]
  T* product;           // one vector of nodes' a e^{i theta} per component: re [c kScalarLanes + lane], then im
};

/// `count` btScalars from `at` on, and where the next table may start (64 bytes on).
T* scalarTable(std::byte*& at, std::size_t count) {
  T* table = reinterpret_cast<T*>(at);
  at += (count * sizeof(T) + 63) / 64 * 64;
  return table;
}

/// The first 64-byte boundary at or after `p` (a vector<double>'s data, 8-byte aligned).
double* aligned64(double* p) {
  const std::uintptr_t misalignment = reinterpret_cast<std::uintptr_t>(p) % 64;
  return p + (misalignment == 0 ? 0 : (64 - misalignment) / sizeof(double));
}

[[nodiscard]] GridTables layTables(double* scratch, std::size_t components, std::size_t nodesU) {
  GridTables g{};
  g.components = components;
  g.componentsPadded = roundUp(components, kLanes);
  g.nodesUPadded = roundUp(nodesU, kScalarLanes);
  const std::size_t n = g.componentsPadded;
  g.stepU = aligned64(scratch);
  g.row = g.stepU + 2 * n;
  g.firstColumn = g.row + 2 * n;
  auto* at = reinterpret_cast<std::byte*>(g.firstColumn + 2 * n);
  g.rowNow = scalarTable(at, 2 * n);
  g.product = scalarTable(at, 2 * components * kScalarLanes);
  return g;
}

/// What a thread's last grid query computed that does not change with the
/// time, and what from: a boat's patch asks for the same sea on the same
/// grid (until it crosses a cell) at the same depths (or the first few of
/// them) substep after substep. The columns' phasors, the rows' step and
/// the velocity weights are then the memo's, the same bits as computed
/// afresh; the rows' phasors, which hold the time, are computed every
/// call. The key is the numbers themselves (the components' bits), not the
/// surface, so that no surface made where another was destroyed can find
/// its predecessor's. Allocates while it grows only.
struct GridMemo {
  std::vector<WaveComponent> components;  // the components the rest is of
  double cellSize_m = 0;                  // the columns' grid: cell, first column and columns
  std::int64_t originI = 0;
  std::size_t nodesU = 0;
  bool columnsHeld = false;
  std::vector<double> columns;   // stepV (2 componentsPadded), then the column table, each 64-byte aligned
  std::vector<double> depths_m;  // the weights' depths
  std::vector<T> weight;         // as GridTables::weight, for depths_m
};

/// The thread's memo, emptied when `components` are not its own.
GridMemo& memoFor(std::span<const WaveComponent> components) {
  thread_local GridMemo memo;
  const bool same = memo.components.size() == components.size() &&
                    std::memcmp(memo.components.data(), components.data(), components.size_bytes()) == 0;
  if (!same) {
    memo.components.assign(components.begin(), components.end());
    memo.columnsHeld = false;
    memo.depths_m.clear();
  }
  return memo;
}

/// Each component's phase at node (i, j) is k_u u_i + (k_v v_j + phi -
/// omega t - k d.current t): the first term the column's, the second the
/// row's. The phases of the first column and of the steps, in double and
/// reduced as the batch queries' are, then their phasors (sinCos) into
/// g.firstColumn, g.stepU and `stepV`.
void columnPhasors(D d, std::span<const WaveComponent> components, const WaterGrid& grid, const GridTables& g,
                   double* stepV) {
  const std::size_t n = g.componentsPadded;
  const double u0_m = grid.cellSize_m * double(grid.originI);
  HWY_ALIGN double column[kLanes], stepU[kLanes], stepRow[kLanes];
  for (std::size_t c = 0; c < n; c += kLanes) {
    for (std::size_t j = 0; j < kLanes; ++j) {
      column[j] = stepU[j] = stepRow[j] = 0;
      if (c + j >= components.size()) continue;
      const WaveComponent& w = components[c + j];
      const double ku = w.wavenumber_radpm * w.directionEast, kv = w.wavenumber_radpm * w.directionNorth;
      column[j] = reduced(ku * u0_m);
      stepU[j] = reduced(ku * grid.cellSize_m), stepRow[j] = reduced(kv * grid.cellSize_m);
    }
    const SinCos first = sinCos(d, hn::Load(d, column)), u = sinCos(d, hn::Load(d, stepU));
    const SinCos v = sinCos(d, hn::Load(d, stepRow));
    hn::Store(first.cosine, d, g.firstColumn + c), hn::Store(first.sine, d, g.firstColumn + n + c);
    hn::Store(u.cosine, d, g.stepU + c), hn::Store(u.sine, d, g.stepU + n + c);
    hn::Store(v.cosine, d, stepV + c), hn::Store(v.sine, d, stepV + n + c);
  }
}

/// The first row's phasors times the amplitudes, into g.row: its phases as
/// columnPhasors' (the current's drift and the time joined in double).
void rowPhasors(D d, std::span<const WaveComponent> components, const WaveFieldSettings& settings,
                const WaterGrid& grid, double t_s, const GridTables& g) {
  const std::size_t n = g.componentsPadded;
  const double v0_m = grid.cellSize_m * double(grid.originJ);
  HWY_ALIGN double amplitude[kLanes], row[kLanes];
  for (std::size_t c = 0; c < n; c += kLanes) {
    for (std::size_t j = 0; j < kLanes; ++j) {
      amplitude[j] = row[j] = 0;
      if (c + j >= components.size()) continue;
      const WaveComponent& w = components[c + j];
      const double ku = w.wavenumber_radpm * w.directionEast, kv = w.wavenumber_radpm * w.directionNorth;
      const double drift_rad = ku * settings.current.east_mps * t_s + kv * settings.current.north_mps * t_s;
      amplitude[j] = w.amplitude_m;
      row[j] = reduced(kv * v0_m + (reduced(phaseAtOrigin_rad(w, t_s)) - drift_rad));
    }
    const V a = hn::Load(d, amplitude);
    const SinCos r = sinCos(d, hn::Load(d, row));
    hn::Store(hn::Mul(a, r.cosine), d, g.row + c), hn::Store(hn::Mul(a, r.sine), d, g.row + n + c);
  }
}

/// The column table, e^{i k_u u_i} for every component and column, by the
/// recurrence along u from the first column, one lane per component, stored
/// transposed so that the sums read consecutive columns. Columns past the
/// grid are zero (their sums are not stored).
void fillColumns(D d, std::size_t nodesU, const GridTables& g, T* column) {
  const std::size_t n = g.componentsPadded, stride = g.nodesUPadded;
  T* re = column;
  T* im = column + g.components * stride;
  HWY_ALIGN double lanes[2 * kLanes];
  for (std::size_t c = 0; c < n; c += kLanes) {
    Phasor z{hn::Load(d, g.firstColumn + c), hn::Load(d, g.firstColumn + n + c)};
    const Phasor step{hn::Load(d, g.stepU + c), hn::Load(d, g.stepU + n + c)};
    const std::size_t last = std::min(kLanes, g.components - c);
    for (std::size_t i = 0; i < stride; ++i) {
      hn::Store(z.re, d, lanes), hn::Store(z.im, d, lanes + kLanes);
      for (std::size_t j = 0; j < last; ++j) {
        re[(c + j) * stride + i] = i < nodesU ? T(lanes[j]) : T(0);
        im[(c + j) * stride + i] = i < nodesU ? T(lanes[kLanes + j]) : T(0);
      }
      z = times(z, step);
    }
  }
}

/// The memo's columns and rows' step for `grid`, computed into it unless
/// it holds them: g.column and g.stepV.
void columnTables(D d, GridMemo& memo, std::span<const WaveComponent> components, const WaterGrid& grid,
                  GridTables& g) {
  const std::size_t n = g.componentsPadded, nodesU = std::size_t(grid.nodesU);
  const std::size_t columnDoubles = (2 * g.components * g.nodesUPadded * sizeof(T) + 7) / 8;
  const bool held = memo.columnsHeld &&
                    std::bit_cast<std::uint64_t>(memo.cellSize_m) == std::bit_cast<std::uint64_t>(grid.cellSize_m) &&
                    memo.originI == grid.originI && memo.nodesU == nodesU;
  if (!held) memo.columns.resize(2 * n + columnDoubles + 16);  // and room to align each part to 64 bytes
  double* stepV = aligned64(memo.columns.data());
  T* column = reinterpret_cast<T*>(aligned64(stepV + 2 * n));
  if (!held) {
    columnPhasors(d, components, grid, g, stepV);
    fillColumns(d, nodesU, g, column);
    memo.cellSize_m = grid.cellSize_m, memo.originI = grid.originI, memo.nodesU = nodesU;
    memo.columnsHeld = true;
  }
  g.stepV = stepV;
  g.column = column;
}

/// One row's heights: `h0 + sum_c Re(column_c,i row_c)` for every column i,
/// one lane per column, two vectors of columns at a time with the real and
/// imaginary products in separate sums (four independent chains).
void rowHeights(DT d, const GridTables& g, double meanLevel_m, std::size_t nodesU, btScalar* out_m) {
  const std::size_t n = g.componentsPadded, stride = g.nodesUPadded, count = g.components;
  const T* re = g.column;
  const T* im = g.column + count * stride;
  HWY_ALIGN T lanes[kScalarLanes];
  for (std::size_t i = 0; i < stride; i += kScalarLanes) {
    VT sumRe = hn::Set(d, T(meanLevel_m)), sumIm = hn::Zero(d);
    for (std::size_t c = 0; c < count; ++c) {
      sumRe = hn::Add(hn::Mul(hn::Load(d, re + c * stride + i), hn::Set(d, g.rowNow[c])), sumRe);
      sumIm = hn::Add(hn::Mul(hn::Load(d, im + c * stride + i), hn::Set(d, g.rowNow[n + c])), sumIm);
    }
    hn::Store(hn::Sub(sumRe, sumIm), d, lanes);
    for (std::size_t j = 0; j < kScalarLanes && i + j < nodesU; ++j) out_m[i + j] = lanes[j];
  }
}

/// The velocity weights `omega e^{-k depth}` (times d_u, d_v and 1) of
/// every level and component: linear deep-water theory, the depth measured
/// below the local surface (Wheeler stretching, as velocities() does).
void fillWeights(D d, std::span<const WaveComponent> components, std::span<const double> depths_m, std::size_t n,
                 T* weight) {
  HWY_ALIGN double k[kLanes], omega[kLanes], du[kLanes], dv[kLanes];
  for (std::size_t c = 0; c < n; c += kLanes) {
    for (std::size_t j = 0; j < kLanes; ++j) {
      const bool real = c + j < components.size();
      k[j] = real ? components[c + j].wavenumber_radpm : 0.0;
      omega[j] = real ? components[c + j].angularFrequency_radps : 0.0;
      du[j] = real ? components[c + j].directionEast : 0.0;
      dv[j] = real ? components[c + j].directionNorth : 0.0;
    }
    for (std::size_t m = 0; m < depths_m.size(); ++m) {
      const V w = hn::Mul(hn::Load(d, omega), det_simd::Exp(d, hn::Mul(hn::Load(d, k), hn::Set(d, -depths_m[m]))));
      HWY_ALIGN double axes[3][kLanes];
      hn::Store(hn::Mul(w, hn::Load(d, du)), d, axes[0]);
      hn::Store(hn::Mul(w, hn::Load(d, dv)), d, axes[1]);
      hn::Store(w, d, axes[2]);
      for (std::size_t axis = 0; axis < 3; ++axis)
        for (std::size_t j = 0; j < kLanes; ++j) weight[(3 * m + axis) * n + c + j] = T(axes[axis][j]);
    }
  }
}

/// The memo's weights at `depths_m`, computed into it unless its depths
/// start with these.
const T* velocityWeights(D d, GridMemo& memo, std::span<const double> depths_m, std::size_t n) {
  const bool held = memo.depths_m.size() >= depths_m.size() &&
                    std::memcmp(memo.depths_m.data(), depths_m.data(), depths_m.size_bytes()) == 0;
  if (!held) {
    memo.depths_m.assign(depths_m.begin(), depths_m.end());
    memo.weight.resize(3 * depths_m.size() * n);
    fillWeights(d, memo.components, depths_m, n, memo.weight.data());
  }
  return memo.weight.data();
}

/// Levels m0 to m0 + L - 1 of the velocities at one vector of columns
/// (from column i), from the components' `a e^{i theta}` in g.product: per
/// level `sum omega e^{-k depth} (d Re, Im)` plus the current, each sum in
/// the components' order as one level alone would take it (the same bits),
/// L levels in one pass so that their 3 L independent multiply-add chains
/// hide each one's latency (one level's three chains left the FMA units
/// idle most of the time).
template <std::size_t L>
void levelVelocities(DT d, const GridTables& g, const WaveFieldSettings& settings, std::size_t m0, std::size_t i,
                     std::size_t nodesU, const GridVelocities& v, std::size_t first) {
  const std::size_t n = g.componentsPadded, count = g.components, levels = v.depths_m.size();
  const T* productRe = g.product;
  const T* productIm = g.product + count * kScalarLanes;
  VT east[L], north[L], up[L];
  for (std::size_t l = 0; l < L; ++l) {
    east[l] = hn::Set(d, T(settings.current.east_mps)), north[l] = hn::Set(d, T(settings.current.north_mps));
    up[l] = hn::Zero(d);
  }
  for (std::size_t c = 0; c < count; ++c) {
    const VT pRe = hn::Load(d, productRe + c * kScalarLanes), pIm = hn::Load(d, productIm + c * kScalarLanes);
    for (std::size_t l = 0; l < L; ++l) {
      const T* w = g.weight + 3 * (m0 + l) * n;
      east[l] = hn::Add(hn::Mul(hn::Set(d, w[c]), pRe), east[l]);
      north[l] = hn::Add(hn::Mul(hn::Set(d, w[n + c]), pRe), north[l]);
      up[l] = hn::Add(hn::Mul(hn::Set(d, w[2 * n + c]), pIm), up[l]);
    }
  }
  HWY_ALIGN T lanes[3 * kScalarLanes];
  for (std::size_t l = 0; l < L; ++l) {
    hn::Store(east[l], d, lanes), hn::Store(north[l], d, lanes + kScalarLanes);
    hn::Store(up[l], d, lanes + 2 * kScalarLanes);
    for (std::size_t j = 0; j < kScalarLanes && i + j < nodesU; ++j)
      v.out[(first + i + j) * levels + m0 + l] = {lanes[j], lanes[kScalarLanes + j], lanes[2 * kScalarLanes + j]};
  }
}

/// One row's heights and velocities: for each vector of columns, every
/// component's `a e^{i theta}` (kept in g.product), its real parts summed
/// to the height; then the velocities of every level, three levels a pass
/// (levelVelocities). Velocities go to `v.out[(first + i) levels + m]`,
/// for the vectors that hold a column of [`from`, `to`): the others'
/// heights are the same sums of the real parts alone, the same bits.
void rowHeightsAndVelocities(DT d, const GridTables& g, const WaveFieldSettings& settings, std::size_t nodesU,
                             btScalar* out_m, const GridVelocities& v, std::size_t first, std::size_t from,
                             std::size_t to) {
  const std::size_t n = g.componentsPadded, stride = g.nodesUPadded, count = g.components;
  const std::size_t levels = v.depths_m.size();
  const T* re = g.column;
  const T* im = g.column + count * stride;
  T* productRe = g.product;
  T* productIm = g.product + count * kScalarLanes;
  HWY_ALIGN T lanes[kScalarLanes];
  for (std::size_t i = 0; i < stride; i += kScalarLanes) {
    VT height = hn::Set(d, T(settings.meanLevel_m));
    const bool velocities = i < to && i + kScalarLanes > from;
    const auto real = [&](std::size_t c) {
      return hn::Sub(hn::Mul(hn::Load(d, re + c * stride + i), hn::Set(d, g.rowNow[c])),
                     hn::Mul(hn::Load(d, im + c * stride + i), hn::Set(d, g.rowNow[n + c])));
    };
    if (velocities) {
      for (std::size_t c = 0; c < count; ++c) {
        const VT pRe = real(c);
        const VT columnRe = hn::Load(d, re + c * stride + i), columnIm = hn::Load(d, im + c * stride + i);
        const VT rowRe = hn::Set(d, g.rowNow[c]), rowIm = hn::Set(d, g.rowNow[n + c]);
        hn::Store(pRe, d, productRe + c * kScalarLanes);
        hn::Store(hn::Add(hn::Mul(columnIm, rowRe), hn::Mul(columnRe, rowIm)), d, productIm + c * kScalarLanes);
        height = hn::Add(height, pRe);
      }
    } else {
      for (std::size_t c = 0; c < count; ++c) height = hn::Add(height, real(c));
    }
    hn::Store(height, d, lanes);
    for (std::size_t j = 0; j < kScalarLanes && i + j < nodesU; ++j) out_m[i + j] = lanes[j];
    if (!velocities) continue;
    std::size_t m = 0;
    for (; m + 3 <= levels; m += 3) levelVelocities<3>(d, g, settings, m, i, nodesU, v, first);
    if (levels - m == 2) levelVelocities<2>(d, g, settings, m, i, nodesU, v, first);
    if (levels - m == 1) levelVelocities<1>(d, g, settings, m, i, nodesU, v, first);
  }
}

/// sineSumGrid: the tables, then the rows, each row's phasors the previous
/// row's times e^{i k_v cell}.
void SineSumGrid(std::span<const WaveComponent> components, const WaveFieldSettings& settings, const WaterGrid& grid,
                 double t_s, btScalar* out_m, const GridVelocities* velocities, double* scratch) {
  const D d;
  const auto nodesU = std::size_t(grid.nodesU), nodesV = std::size_t(grid.nodesV);
  GridTables g = layTables(scratch, components.size(), nodesU);
  GridMemo& memo = memoFor(components);
  columnTables(d, memo, components, grid, g);
  rowPhasors(d, components, settings, grid, t_s, g);
  if (velocities) g.weight = velocityWeights(d, memo, velocities->depths_m, g.componentsPadded);
  const std::size_t n = g.componentsPadded;
  const DT dt;
  // The window's columns [from, to) and rows [rowFrom, rowTo), clipped to the grid.
  const GridWindow window = velocities ? velocities->window : GridWindow{};
  const auto clip = [](int first, int count, std::size_t nodes) {
    const std::size_t from = std::min(std::size_t(first), nodes);
    return std::pair{from, from + std::min(std::size_t(count), nodes - from)};
  };
  const auto [from, to] = clip(window.firstU, window.nodesU, nodesU);
  const auto [rowFrom, rowTo] = clip(window.firstV, window.nodesV, nodesV);
  for (std::size_t j = 0; j < nodesV; ++j) {
    for (std::size_t c = 0; c < 2 * n; ++c) g.rowNow[c] = T(g.row[c]);
    if (velocities) {
      const bool inWindow = j >= rowFrom && j < rowTo;
      rowHeightsAndVelocities(dt, g, settings, nodesU, out_m + j * nodesU, *velocities, j * nodesU, inWindow ? from : 0,
                              inWindow ? to : 0);
    } else {
      rowHeights(dt, g, settings.meanLevel_m, nodesU, out_m + j * nodesU);
    }
    for (std::size_t c = 0; c < n; c += kLanes) {
      const Phasor row{hn::Load(d, g.row + c), hn::Load(d, g.row + n + c)};
      const Phasor next = times(row, {hn::Load(d, g.stepV + c), hn::Load(d, g.stepV + n + c)});
      hn::Store(next.re, d, g.row + c), hn::Store(next.im, d, g.row + n + c);
    }
  }
}

}  // namespace
}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(SineSumGrid);

std::size_t sineSumGridScratch(std::size_t components) {
  // The widest vector compiled: AVX-512 (see kLanes and kScalarLanes).
  constexpr std::size_t lanes = 64 / sizeof(double), scalarLanes = 64 / sizeof(btScalar);
  const std::size_t padded = roundUp(components, lanes);
  // The btScalar tables (layTables), in doubles, each rounded up to 64 bytes.
  const auto doubles = [](std::size_t scalars) { return (scalars * sizeof(btScalar) + 63) / 64 * 8; };
  return 6 * padded + doubles(2 * padded) + doubles(2 * components * scalarLanes) + 8;  // and 64 bytes to align it
}

void sineSumGrid(std::span<const WaveComponent> components, const WaveFieldSettings& settings, const WaterGrid& grid,
                 double t_s, btScalar* out_m, const GridVelocities* velocities, double* scratch) {
  HWY_DYNAMIC_DISPATCH(SineSumGrid)(components, settings, grid, t_s, out_m, velocities, scratch);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE

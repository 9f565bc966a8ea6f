// The heights stage's kernels (heights.hpp), one copy per instruction set
// (simd-inl.hpp).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/heights.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/heights.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

VertexHeights VertexHeightsKernel(const HullSoA& hull, const T* up, T centreUp_m, const T* waterHeight_m, T* h_m,
                                  T* above_m) {
  const D d;
  const V ux = hn::Set(d, up[0]), uy = hn::Set(d, up[1]), uz = hn::Set(d, up[2]), c = hn::Set(d, centreUp_m);
  const V largest = hn::Set(d, std::numeric_limits<T>::max());
  V bottom = hn::Set(d, BT_LARGE_FLOAT), top = hn::Set(d, -BT_LARGE_FLOAT), nonFinite = hn::Zero(d);
  V lowest = hn::Set(d, BT_LARGE_FLOAT);
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see simd-inl.hpp
  for (std::size_t i = 0; i < hull.vertexPadded; i += hn::Lanes(d)) {
    const V3 p = load3(d, px, py, pz, i);
    const V above = hn::MulAdd(p.x, ux, hn::MulAdd(p.y, uy, hn::MulAdd(p.z, uz, c)));
    const V water = hn::LoadU(d, waterHeight_m + i);
    const V h = hn::Sub(above, water);
    hn::StoreU(h, d, h_m + i);
    if (above_m) hn::StoreU(above, d, above_m + i);
    const M real = hn::FirstN(d, hull.vertexCount - std::min(i, hull.vertexCount));
    lowest = hn::Min(lowest, hn::IfThenElse(real, h, lowest));
    bottom = hn::Min(bottom, hn::IfThenElse(real, water, bottom));
    top = hn::Max(top, hn::IfThenElse(real, water, top));
    // Not |x| <= max: NaN or infinite (counted, as water_sampling.cpp's replaceNonFinite does).
    const M finite = hn::Le(hn::Abs(water), largest);
    nonFinite = hn::Add(nonFinite, hn::IfThenElseZero(hn::AndNot(finite, real), hn::Set(d, T(1))));
  }
  return VertexHeights{Extent{hn::GetLane(hn::MinOfLanes(d, bottom)), hn::GetLane(hn::MaxOfLanes(d, top))},
                       std::size_t(hn::GetLane(hn::SumOfLanes(d, nonFinite))), hn::GetLane(hn::MinOfLanes(d, lowest))};
}

void CoordinatesKernel(const HullSoA& hull, const T* east, const T* north, const T* up, double centreEast_m,
                       double centreNorth_m, T centreUp_m, T* u_m, T* v_m, T* w_m) {
  const D d;
  const V3 e = set3(d, {east[0], east[1], east[2]}), n = set3(d, {north[0], north[1], north[2]});
  const V3 z = set3(d, {up[0], up[1], up[2]});
  const V c = hn::Set(d, centreUp_m);
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see simd-inl.hpp
  for (std::size_t i = 0; i < hull.vertexPadded; i += hn::Lanes(d)) {
    const V3 p = load3(d, px, py, pz, i);
    hn::StoreU(addToDouble(d, dot(p, e), centreEast_m), d, u_m + i);
    hn::StoreU(addToDouble(d, dot(p, n), centreNorth_m), d, v_m + i);
    if (w_m) hn::StoreU(hn::Add(c, dot(p, z)), d, w_m + i);
  }
}

constexpr std::size_t kMaxDoubles = HWY_MAX_BYTES / sizeof(double);

/// The samples at the corners (0, 0), (1, 0), (0, 1) and (1, 1) of each
/// lane's cell, whose (0, 0) is at grid + first[lane] (rows `side` apart),
/// as lanes of DT (btScalars as many as the double lanes).
template <class DT>
HWY_INLINE void cellCorners(const T* grid, const ScalarIndex* first, std::size_t side, hn::Vec<DT>& h00,
                            hn::Vec<DT>& h10, hn::Vec<DT>& h01, hn::Vec<DT>& h11) {
  using Tag = std::remove_const_t<DT>;
  const Tag dt;
#if KEEL_QUAD_TRANSPOSE
  // A point's cell as a row (its two rows' two samples each), the rows
  // transposed (simd-inl.hpp).
  const hn::Full64<T> d2;
  const hn::Full128<T> d4;
  hn::Vec<Tag> corner[4];
  rowsToLanes(
      dt,
      [&](std::size_t j) {
        return hn::Combine(d4, hn::LoadU(d2, grid + first[j] + side), hn::LoadU(d2, grid + first[j]));
      },
      corner);
  h00 = corner[0], h10 = corner[1], h01 = corner[2], h11 = corner[3];
#else
  // A point at a time into memory, read back interleaved.
  HWY_ALIGN T quad[4 * kMaxDoubles];  // each point's (0, 0), (1, 0), (0, 1), (1, 1)
  for (std::size_t j = 0; j < hn::Lanes(dt); ++j) {
    std::memcpy(quad + 4 * j, grid + first[j], 2 * sizeof(T));
    std::memcpy(quad + 4 * j + 2, grid + first[j] + side, 2 * sizeof(T));
  }
  hn::LoadInterleaved4(dt, quad, h00, h10, h01, h11);
#endif
}

/// WaterPatch::height at every vertex (i < vertexPadded), lane by lane in
/// double as the scalar code: horizontal position u = centreEast +
/// double(p . east) [m], its cell, and the plane of the cell's triangle
/// (split on the (1,0)-(0,1) diagonal) through the three samples around it.
void PatchHeightsKernel(const HullSoA& hull, const T* east, const T* north, const T* up, double centreEast_m,
                        double centreNorth_m, T centreUp_m, const T* grid, int side, double inverseCell_pm,
                        double originI, double originJ, T* out_m, PatchCells cells) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<T, decltype(dd)> dt;            // btScalar lanes, as many as the doubles
  const hn::Rebind<ScalarIndex, decltype(dd)> dk;  // grid indices, as wide as btScalar
  using VD = hn::Vec<decltype(dd)>;
#if defined(BT_USE_DOUBLE_PRECISION)
  auto toDouble = [](hn::Vec<decltype(dt)> x) { return x; };
  auto toScalar = [](VD x) { return x; };
#else
  auto toDouble = [&](hn::Vec<decltype(dt)> x) { return hn::PromoteTo(dd, x); };
  auto toScalar = [&](VD x) { return hn::DemoteTo(dt, x); };
#endif
  auto toIndex = [&](hn::Vec<decltype(dd)> k) {
#if defined(BT_USE_DOUBLE_PRECISION)
    return hn::ConvertTo(dk, k);
#else
    return hn::DemoteTo(dk, k);
#endif
  };
  const VD one = hn::Set(dd, 1.0);
  const VD cu = hn::Set(dd, centreEast_m), cv = hn::Set(dd, centreNorth_m);
  const auto ex = hn::Set(dt, east[0]), ey = hn::Set(dt, east[1]), ez = hn::Set(dt, east[2]);
  const auto nx = hn::Set(dt, north[0]), ny = hn::Set(dt, north[1]), nz = hn::Set(dt, north[2]);
  const auto zx = hn::Set(dt, up[0]), zy = hn::Set(dt, up[1]), zz = hn::Set(dt, up[2]);
  const auto cw = hn::Set(dt, centreUp_m);
  T* record = cells.record;
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see simd-inl.hpp
  for (std::size_t i = 0; i < hull.vertexPadded; i += hn::Lanes(dd)) {
    const auto x = hn::LoadU(dt, px + i), y = hn::LoadU(dt, py + i), z = hn::LoadU(dt, pz + i);
    const VD u = hn::Add(cu, toDouble(hn::MulAdd(x, ex, hn::MulAdd(y, ey, hn::Mul(z, ez)))));
    const VD v = hn::Add(cv, toDouble(hn::MulAdd(x, nx, hn::MulAdd(y, ny, hn::Mul(z, nz)))));
    const PatchCellLanes cell = locatePatchCell(u, v, inverseCell_pm, originI, originJ, side);
    // The cell's four corners, a row's two at a time (grid + k and the next
    // row), a point at a time: no gathers, which cost about a cycle per
    // element and are microcoded on AMD Zen 4. Node indices in double: exact.
    HWY_ALIGN ScalarIndex first[kMaxDoubles];
    const auto k00 = toIndex(cell.k00);
    hn::Store(k00, dk, first);
    if (record != nullptr) {
      // worldCoordinates' w (CoordinatesKernel's operations, lane for lane).
      const auto w = hn::Add(cw, hn::MulAdd(x, zx, hn::MulAdd(y, zy, hn::Mul(z, zz))));
      hn::StoreInterleaved4(hn::BitCast(dt, k00), toScalar(cell.a), toScalar(cell.b), w, dt,
                            record + PatchCells::kRecord * i);
    }
    hn::Vec<decltype(dt)> h00, h10, h01, h11;
    cellCorners<decltype(dt)>(grid, first, std::size_t(side), h00, h10, h01, h11);
    // The cell's triangle: the lower (a + b <= 1) from node (0, 0), the
    // upper from (1, 1); the corner along a's edge and the one along b's
    // (the upper's are (0, 1) and (1, 0), with weights 1 - a and 1 - b).
    const VD a = cell.a, b = cell.b;
    const auto lower = hn::Le(hn::Add(a, b), one);
    const VD h0 = hn::IfThenElse(lower, toDouble(h00), toDouble(h11));
    const VD hA = hn::IfThenElse(lower, toDouble(h10), toDouble(h01));
    const VD hB = hn::IfThenElse(lower, toDouble(h01), toDouble(h10));
    const VD wa = hn::IfThenElse(lower, a, hn::Sub(one, a)), wb = hn::IfThenElse(lower, b, hn::Sub(one, b));
    const VD h = hn::MulAdd(wb, hn::Sub(hB, h0), hn::MulAdd(wa, hn::Sub(hA, h0), h0));
    hn::StoreU(toScalar(h), dt, out_m + i);
  }
}

std::size_t WetVerticesKernel(const T* h_m, std::size_t count, std::uint32_t* out) {
  std::size_t listed = 0;
#if defined(BT_USE_DOUBLE_PRECISION)
  // 64-bit lanes: no mask for the 32-bit indices' lanes; a scalar loop.
  for (std::uint32_t i = 0; i < count; ++i)
    if (h_m[i] < 0) out[listed++] = i;
#else
  const D d;
  const hn::RebindToUnsigned<D> du;
  const V zero = hn::Zero(d);
  auto index = hn::Iota(du, 0);
  const auto step = hn::Set(du, std::uint32_t(hn::Lanes(d)));
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    const M wet = hn::And(hn::Lt(hn::LoadU(d, h_m + i), zero), hn::FirstN(d, count - i));
    // Compress in a register, then a whole-vector store (out has room past
    // them): CompressStore's masked compressing store to memory is
    // microcoded on AMD Zen 4, about 60 cycles a vector against a few.
    const auto mask = hn::RebindMask(du, wet);
    hn::StoreU(hn::Compress(index, mask), du, out + listed);
    listed += hn::CountTrue(du, mask);
    index = hn::Add(index, step);
  }
#endif
  return listed;
}

/// velocitiesToBody: three interleaved components per velocity.
std::size_t VelocitiesKernel(const WaterVelocity* in, std::size_t count, const T* east, const T* north, const T* up,
                             T* out4, const std::uint32_t* vertex) {
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(T), "WaterVelocity is three btScalars");
  const D d;
  const V3 e = set3(d, {east[0], east[1], east[2]}), n = set3(d, {north[0], north[1], north[2]});
  const V3 z = set3(d, {up[0], up[1], up[2]});
  const V largest = hn::Set(d, std::numeric_limits<T>::max());
  V bad = hn::Zero(d);
  const T* flat = &in[0].east_mps;
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    V ue, un, uu;
    hn::LoadInterleaved3(d, flat + 3 * i, ue, un, uu);
    // Finite when every |component| <= max (a NaN compares false).
    const M finite = hn::And(hn::And(hn::Le(hn::Abs(ue), largest), hn::Le(hn::Abs(un), largest)),
                             hn::Le(hn::Abs(uu), largest));
    const M real = hn::FirstN(d, count - i);
    bad = hn::Add(bad, hn::IfThenElseZero(hn::AndNot(finite, real), hn::Set(d, T(1))));
    ue = hn::IfThenElseZero(finite, ue), un = hn::IfThenElseZero(finite, un), uu = hn::IfThenElseZero(finite, uu);
    storeVertexVelocities(d, hn::MulAdd(e.x, ue, hn::MulAdd(n.x, un, hn::Mul(z.x, uu))),
                          hn::MulAdd(e.y, ue, hn::MulAdd(n.y, un, hn::Mul(z.y, uu))),
                          hn::MulAdd(e.z, ue, hn::MulAdd(n.z, un, hn::Mul(z.z, uu))), out4, vertex, i,
                          std::min(hn::Lanes(d), count - i));
  }
  return std::size_t(hn::GetLane(hn::SumOfLanes(d, bad)));
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(VertexHeightsKernel);
HWY_EXPORT(CoordinatesKernel);
HWY_EXPORT(PatchHeightsKernel);
HWY_EXPORT(VelocitiesKernel);
HWY_EXPORT(WetVerticesKernel);

VertexHeights vertexHeights(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m,
                            const btScalar* waterHeight_m, btScalar* h_m, btScalar* above_m) {
  return HWY_DYNAMIC_DISPATCH(VertexHeightsKernel)(hull, up, centreUp_m, waterHeight_m, h_m, above_m);
}

void worldCoordinates(const HullSoA& hull, const btScalar east[3], const btScalar north[3], const btScalar up[3],
                      double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* u_m, btScalar* v_m,
                      btScalar* w_m) {
  HWY_DYNAMIC_DISPATCH(CoordinatesKernel)
  (hull, east, north, up, centreEast_m, centreNorth_m, centreUp_m, u_m, v_m, w_m);
}

void patchHeights(const HullSoA& hull, const WaterPatch& patch, const btScalar east[3], const btScalar north[3],
                  const btScalar up[3], double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* out_m,
                  PatchCells cells) {
  HWY_DYNAMIC_DISPATCH(PatchHeightsKernel)
  (hull, east, north, up, centreEast_m, centreNorth_m, centreUp_m, patch.samples_m().data(), patch.samplesPerSide(),
   1.0 / double(patch.cellSize_m()), double(patch.originI()), double(patch.originJ()), out_m, cells);
}

std::size_t listWet(const btScalar* h_m, std::size_t count, std::uint32_t* out) {
  return HWY_DYNAMIC_DISPATCH(WetVerticesKernel)(h_m, count, out);
}

std::size_t velocitiesToBody(const WaterVelocity* in, std::size_t count, const btScalar east[3],
                             const btScalar north[3], const btScalar up[3], btScalar* out4,
                             const std::uint32_t* vertex) {
  return HWY_DYNAMIC_DISPATCH(VelocitiesKernel)(in, count, east, north, up, out4, vertex);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE

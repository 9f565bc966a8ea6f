#pragma once
// Internal to Keel: the library's way to a Hull's and a ColumnHull's kernel
// form, which the public headers keep private (a user names neither).

#include <keel/columns.hpp>
#include <keel/hull.hpp>

namespace keel::KEEL_ABI::detail {

/// The one friend of Hull and ColumnHull; use soaOf().
struct HullAccess {
  [[nodiscard]] static const HullSoA& soa(const Hull& hull) { return *hull.soa_; }
  [[nodiscard]] static const ColumnSoA& soa(const ColumnHull& columns) { return *columns.soa_; }
};

/// The hull laid out for the SIMD kernels, body frame (kernels/hull_soa.hpp).
[[nodiscard]] inline const HullSoA& soaOf(const Hull& hull) { return HullAccess::soa(hull); }
/// The columns as the column kernels read them (columns/column_soa.hpp).
[[nodiscard]] inline const ColumnSoA& soaOf(const ColumnHull& columns) { return HullAccess::soa(columns); }

}  // namespace keel::KEEL_ABI::detail

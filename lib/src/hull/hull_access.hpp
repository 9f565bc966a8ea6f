#pragma once
// Internal to Keel: a Hull's and a ColumnHull's kernel form, which the
// public headers keep opaque (a user names neither).

#include "columns/column_soa.hpp"
#include "internals.hpp"
#include "kernels/hull_soa.hpp"

namespace keel::KEEL_ABI::detail {

/// The hull laid out for the SIMD kernels, body frame (kernels/hull_soa.hpp).
[[nodiscard]] inline const HullSoA& soaOf(const Hull& hull) { return Internals::kernels(hull); }
/// The columns as the column kernels read them (columns/column_soa.hpp).
[[nodiscard]] inline const ColumnSoA& soaOf(const ColumnHull& columns) { return Internals::kernels(columns); }

}  // namespace keel::KEEL_ABI::detail

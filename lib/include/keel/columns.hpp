#pragma once
/// @file columns.hpp
/// The column buoyancy model (docs/columns.md): a hull cut into vertical
/// columns once, whose buoyancy each substep follows from the water height
/// at each column. Cheaper than the exact triangle model, for far boats and
/// big fleets; exact for wall-sided hulls while the water crosses no
/// column's bottom or top.

#include <keel/attitude.hpp>
#include <keel/config.hpp>
#include <keel/hull.hpp>

#include <LinearMath/btVector3.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace keel::KEEL_ABI {

/// Which model a keel::WaterAction computes the water's force with.
enum class BuoyancyModel {
  /// Kerner's exact pressure integral over the hull's triangles, with every
  /// hydrodynamic term (docs/model.md).
  Triangles,
  /// Vertical columns (docs/columns.md): buoyancy from the water height at
  /// each column, and only the damping among the hydrodynamic terms.
  Columns,
};

/// How a ColumnHull is cut.
struct ColumnSettings {
  /// Side of a column's square footprint [m]. 0: chosen so that the hull's
  /// footprint's bounding rectangle holds about `targetColumns` cells.
  btScalar cellSize_m = 0;
  /// Cells in the footprint's bounding rectangle when `cellSize_m` is 0:
  /// 330 is Zephyr's 47 x 7 grid ("Buoyancy and gravity"); a boat fills about two thirds.
  std::size_t targetColumns = 330;
  /// Model each column's bottom and top as sloping across its cell (a ramp
  /// in its section, Column::bottomRamp_m), which makes curved hulls several
  /// times more accurate for about a third more time per column; false:
  /// flat ends, as in Zephyr's article. Hulls with flat bottoms and decks
  /// have no ramps and cost nothing more either way.
  bool slopedEnds = true;
  /// The hull's up (the columns' direction) and forward (the grid's first
  /// axis), body frame; as for heel and trim.
  HullAxes axes{};
};

/// One column: the hull's volume over one square cell of the grid, between
/// one part's bottom and top (a catamaran's two hulls under one cell are two
/// columns). Heights are along the hull's up from the body origin.
struct Column {
  int i = 0, j = 0;  ///< the cell's indices along forward and side
  /// The hull part (connected surface) it belongs to; for a column of
  /// overlapping parts' union, the lowest-numbered of them.
  std::uint32_t part = 0;
  btVector3 footprintCentre_m{0, 0, 0};  ///< the cell's centre at height 0, body frame [m]
  btScalar bottom_m = 0;                 ///< the part's mean bottom height over the cell [m]
  btScalar top_m = 0;                    ///< its mean top height [m]
  btScalar area_m2 = 0;                  ///< volume / (top - bottom): the footprint inside the hull [m^2]
  /// Half-widths of the bottom's and the top's ramps [m]: the column's
  /// section grows linearly from 0 at bottom - bottomRamp to area_m2 at
  /// bottom + bottomRamp, and shrinks likewise about the top (a bottom
  /// that slopes across the cell). 0 for a flat bottom or top.
  btScalar bottomRamp_m = 0, topRamp_m = 0;
  btScalar volume_m3 = 0;         ///< the hull's volume in the cell, exact [m^3]
  btVector3 centroid_m{0, 0, 0};  ///< that volume's centroid, body frame [m]
};

/// A hull cut into vertical columns on a square grid, along its up axis.
/// Each column's volume and centroid are exact for the polyhedron: every
/// triangle's projection is clipped to each cell it covers
/// (Sutherland-Hodgman) and the triangle's height plane integrated over the
/// clipped polygon, signed by which way the triangle faces; the columns'
/// volumes sum to Hull::volume_m3(). Where the hull's parts overlap
/// (HullOptions::overlappingParts), a cell's overlapping parts make one
/// column of their union, exact too (docs/columns.md, "Overlapping
/// parts"). Built once, immutable: share one
/// `std::shared_ptr<const ColumnHull>` between every boat with the hull.
class ColumnHull {
 public:
  /// Cuts `hull` into columns. Throws std::invalid_argument for a
  /// non-positive or non-finite cell size, zero or parallel axes, more
  /// than 4,194,304 cells, or more than 7 parts overlapping in one cell.
  explicit ColumnHull(const Hull& hull, const ColumnSettings& settings = {});
  ~ColumnHull();
  ColumnHull(const ColumnHull&) = delete;
  ColumnHull& operator=(const ColumnHull&) = delete;

  [[nodiscard]] std::span<const Column> columns() const { return columns_; }
  [[nodiscard]] btScalar cellSize_m() const { return cell_m_; }  ///< [m]
  /// The columns' direction (the hull's up, unit), the grid's first axis
  /// (forward, made perpendicular) and second (up x forward), body frame.
  [[nodiscard]] const btVector3& up() const { return up_; }
  [[nodiscard]] const btVector3& forward() const { return forward_; }
  [[nodiscard]] const btVector3& side() const { return side_; }
  /// Sum of the columns' volumes [m^3] (the hull's volume to round-off).
  [[nodiscard]] double volume_m3() const { return volume_m3_; }
  /// The hull's volume and bounding radius [m^3, m], as Hull gives them.
  [[nodiscard]] btScalar hullVolume_m3() const { return hullVolume_m3_; }
  [[nodiscard]] btScalar hullRadius_m() const { return hullRadius_m_; }

 private:
  /// The columns as the library's kernels read them (lib/src): opaque here.
  struct Kernels;
  /// The library's own way to what this class keeps private; not for users.
  friend class Internals;
  std::vector<Column> columns_;
  btScalar cell_m_ = 0;
  btVector3 up_{0, 1, 0}, forward_{1, 0, 0}, side_{0, 0, -1};
  double volume_m3_ = 0;
  btScalar hullVolume_m3_ = 0, hullRadius_m_ = 0;
  std::unique_ptr<Kernels> soa_;
};

/// The ColumnHull of `hull` with default ColumnSettings but for
/// `targetColumns` (ColumnSettings::targetColumns, 330 by default), built
/// on first request and shared with every later caller for the same hull
/// and count while any holds it (thread-safe). WaterAction uses it when
/// switched to columns without being given one, and for a level of detail
/// that names its column count (LevelOfDetail::columnCells). Throws
/// std::invalid_argument for a null hull or a count of 0.
[[nodiscard]] std::shared_ptr<const ColumnHull> defaultColumnHull(
    const std::shared_ptr<const Hull>& hull, std::size_t targetColumns = ColumnSettings{}.targetColumns);

}  // namespace keel::KEEL_ABI

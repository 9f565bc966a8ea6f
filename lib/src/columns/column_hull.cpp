// keel::ColumnHull: a hull cut into vertical columns, each column's volume
// and centroid exact for the polyhedron (docs/columns.md, "The columns").
#include <keel/columns.hpp>

#include "columns/column_build.hpp"
#include "columns/column_soa.hpp"

#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

/// Unit up, forward made perpendicular to it, and side = up x forward.
void columnAxes(const HullAxes& axes, btVector3& up, btVector3& forward, btVector3& side) {
  const btScalar upLength = axes.up.length();
  const btVector3 f = upLength > 0 ? axes.forward - axes.up * (axes.forward.dot(axes.up) / (upLength * upLength))
                                   : btVector3(0, 0, 0);
  const btScalar forwardLength = f.length();
  if (!(upLength > 0) || !(forwardLength > btScalar(1e-3) * axes.forward.length()))
    throw std::invalid_argument("keel::ColumnHull: axes.forward and axes.up must be non-zero and not parallel");
  up = axes.up / upLength;
  forward = f / forwardLength;
  side = up.cross(forward);
}

/// The kernels' arrays, padded with columns of no area.
void fillSoA(const std::vector<Column>& columns, const ColumnHull& hull, detail::ColumnSoA& soa) {
  const btVector3& up = hull.up();
  const std::size_t n = columns.size(), padded = detail::padded(n);
  detail::HullSoA& p = soa.points;
  p.vertexCount = n;
  p.vertexPadded = padded;
  p.x.assign(padded, 0), p.y.assign(padded, 0), p.z.assign(padded, 0);
  soa.lo.assign(padded, btScalar(-0.5)), soa.hi.assign(padded, btScalar(0.5)), soa.area.assign(padded, 0);
  soa.inverseLength.assign(padded, 1);
  for (auto* v : {&soa.loRamp, &soa.hiRamp, &soa.loRampInverse, &soa.hiRampInverse}) v->assign(padded, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const Column& c = columns[k];
    p.x[k] = c.centroid_m.x(), p.y[k] = c.centroid_m.y(), p.z[k] = c.centroid_m.z();
    const btScalar centre = c.centroid_m.dot(up);
    soa.lo[k] = c.bottom_m - centre, soa.hi[k] = c.top_m - centre, soa.area[k] = c.area_m2;
    soa.inverseLength[k] = 1 / (soa.hi[k] - soa.lo[k]);
    soa.loRamp[k] = c.bottomRamp_m, soa.hiRamp[k] = c.topRamp_m;
    soa.loRampInverse[k] = c.bottomRamp_m > 0 ? 1 / (4 * c.bottomRamp_m) : 0;
    soa.hiRampInverse[k] = c.topRamp_m > 0 ? 1 / (4 * c.topRamp_m) : 0;
    soa.ramps = soa.ramps || c.bottomRamp_m > 0 || c.topRamp_m > 0;
  }
  for (int k = 0; k < 3; ++k) soa.axis[k] = up[k], soa.forward[k] = hull.forward()[k], soa.side[k] = hull.side()[k];
  soa.cell_m = hull.cellSize_m();
}

}  // namespace

ColumnHull::ColumnHull(const Hull& hull, const ColumnSettings& settings)
    : hullVolume_m3_(hull.volume_m3()), hullRadius_m_(hull.radius_m()), soa_(std::make_unique<Kernels>()) {
  columnAxes(settings.axes, up_, forward_, side_);
  if (settings.cellSize_m != 0 && (!(settings.cellSize_m > 0) || !std::isfinite(settings.cellSize_m)))
    throw std::invalid_argument("keel::ColumnHull: cell size must be positive and finite (or 0: automatic), got " +
                                std::to_string(settings.cellSize_m) + " m");
  if (settings.cellSize_m == 0 && settings.targetColumns == 0)
    throw std::invalid_argument("keel::ColumnHull: targetColumns must be positive when the cell size is automatic");
  const detail::ColumnGrid grid = detail::columnGrid(hull, up_, forward_, side_, settings);
  cell_m_ = btScalar(grid.cell_m);
  columns_ = detail::cutColumns(hull, grid);
  if (!settings.slopedEnds)
    for (Column& c : columns_) c.bottomRamp_m = c.topRamp_m = 0;
  for (const Column& c : columns_) volume_m3_ += double(c.volume_m3);
  fillSoA(columns_, *this, *soa_);
}

ColumnHull::~ColumnHull() = default;

std::shared_ptr<const ColumnHull> defaultColumnHull(const std::shared_ptr<const Hull>& hull,
                                                    std::size_t targetColumns) {
  if (!hull) throw std::invalid_argument("keel::defaultColumnHull: hull is null");
  if (targetColumns == 0) throw std::invalid_argument("keel::defaultColumnHull: targetColumns must be positive");
  // Keyed by the hull's control block (owner_less) and the count: a new
  // hull at a freed hull's address is another key. Expired entries are
  // dropped as found.
  using Key = std::pair<std::weak_ptr<const Hull>, std::size_t>;
  const auto before = [](const Key& a, const Key& b) {
    const std::owner_less<> owner;
    if (owner(a.first, b.first)) return true;
    if (owner(b.first, a.first)) return false;
    return a.second < b.second;
  };
  static std::mutex mutex;
  static std::map<Key, std::weak_ptr<const ColumnHull>, decltype(before)> cache(before);
  const std::lock_guard<std::mutex> lock(mutex);
  for (auto it = cache.begin(); it != cache.end();)
    it = it->first.first.expired() || it->second.expired() ? cache.erase(it) : std::next(it);
  std::weak_ptr<const ColumnHull>& slot = cache[Key(hull, targetColumns)];
  std::shared_ptr<const ColumnHull> columns = slot.lock();
  if (!columns) {
    ColumnSettings settings;
    settings.targetColumns = targetColumns;
    columns = std::make_shared<const ColumnHull>(*hull, settings);
    slot = columns;
  }
  return columns;
}

}  // namespace keel::KEEL_ABI

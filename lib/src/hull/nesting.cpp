// Hull construction: parts that overlap, and cavities.
//
// The pressure integral and the hull's volume sum every part's surface, each
// with its sign (docs/model.md §1): that is the solid's volume only where the
// surface's winding number is 0 (outside, or in a cavity) or 1 (inside the
// solid). Two outward parts that overlap make it 2 there, a cavity outside
// every solid -1. Parts that only touch (at a vertex, along an edge, face to
// face) leave it 0 or 1.
//
// Two tests, both only between parts whose bounding boxes meet, so that a
// one-part hull or a catamaran costs nothing:
// - faces that cross (triangle against triangle, through a grid over the
//   boxes' overlap): the surfaces pass through each other;
// - the winding number just off each side of every triangle inside another
//   part's box (by rays along an axis, through a grid of columns): a part
//   inside another, a cavity outside its solid, or parts overlapping where
//   their faces only touch or coincide, or cross exactly at a corner or an
//   edge (common in meshes on a grid), which the first test leaves alone.

#include "hull/build_steps.hpp"
#include "hull/spatial_grid.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// Whether the interiors of triangles `s` and `t` cross: each has corners
/// farther than `tol_m` on both sides of the other's plane, and the segments
/// where each meets the other's plane overlap by more than `tol_m` (the
/// interval test of Möller, "A fast triangle-triangle intersection test",
/// Journal of Graphics Tools 2(2), 1997). Touching is not crossing.
bool facesCross(const Corners& s, const Corners& t, double tol_m) {
  // The segment where `a` meets the plane of `b`, as an interval along `line`.
  auto interval = [&](const Corners& a, const Corners& b, const Vec3d& line, double(&range)[2]) {
    const Vec3d n = cross(sub(b.p[1], b.p[0]), sub(b.p[2], b.p[0]));
    const double nLength = norm(n);
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = dot(n, sub(a.p[i], b.p[0])) / nLength;
    if (!(std::max({d[0], d[1], d[2]}) > tol_m && std::min({d[0], d[1], d[2]}) < -tol_m)) return false;
    range[0] = HUGE_VAL, range[1] = -HUGE_VAL;
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3;
      double along;
      if (std::abs(d[i]) <= tol_m)
        along = dot(a.p[i], line);
      else if ((d[i] > tol_m && d[j] < -tol_m) || (d[i] < -tol_m && d[j] > tol_m))
        along = dot(a.p[i], line) + (dot(a.p[j], line) - dot(a.p[i], line)) * d[i] / (d[i] - d[j]);
      else
        continue;
      range[0] = std::min(range[0], along), range[1] = std::max(range[1], along);
    }
    return true;
  };
  Vec3d line = cross(cross(sub(s.p[1], s.p[0]), sub(s.p[2], s.p[0])), cross(sub(t.p[1], t.p[0]), sub(t.p[2], t.p[0])));
  const double lineLength = norm(line);
  if (!(lineLength > 0)) return false;  // parallel planes
  line = {line.x / lineLength, line.y / lineLength, line.z / lineLength};
  double onS[2], onT[2];
  if (!interval(s, t, line, onS) || !interval(t, s, line, onT)) return false;
  return std::min(onS[1], onT[1]) - std::max(onS[0], onT[0]) > tol_m;
}

/// "(x, y, z)" of a point in double.
std::string formatVec(const Vec3d& p) { return formatPoint(btVector3(btScalar(p.x), btScalar(p.y), btScalar(p.z))); }

/// What the checks found: pairs of parts that overlap, with where first;
/// inward parts not wholly inside a solid.
struct Findings {
  std::map<std::pair<std::size_t, std::size_t>, std::string> overlaps;  ///< (lower, higher) -> where
  std::set<std::size_t> inward;
};

/// The triangles of `part` whose boxes (grown by `grow_m`) meet `box`.
std::vector<std::uint32_t> trianglesMeeting(const Part& part, const Mesh& mesh, const Box& box, double grow_m) {
  std::vector<std::uint32_t> found;
  for (std::uint32_t t : part.triangles)
    if (overlap(boxOf(cornersOf(mesh, t), grow_m), box)) found.push_back(t);
  return found;
}

/// Records an overlap of parts p and q when some face of one crosses a face
/// of the other.
void findCrossings(const Mesh& mesh, std::span<const Part> parts, std::size_t p, std::size_t q, double tol_m,
                   Findings& findings) {
  const Box common = intersection(boxOf(parts[p].bounds, tol_m), boxOf(parts[q].bounds, tol_m));
  const std::vector<std::uint32_t> ofP = trianglesMeeting(parts[p], mesh, common, tol_m);
  const std::vector<std::uint32_t> ofQ = trianglesMeeting(parts[q], mesh, common, tol_m);
  if (ofP.empty() || ofQ.empty()) return;
  const CellGrid grid(mesh, ofQ, common, tol_m);
  std::vector<std::uint32_t> testedBy(ofQ.size(), UINT32_MAX);  // a pair shares several cells: test it once
  for (std::uint32_t i = 0; i < ofP.size(); ++i) {
    const Corners s = cornersOf(mesh, ofP[i]);
    const Box sBox = boxOf(s, tol_m);
    bool crossed = false;
    grid.forEachNear(sBox, [&](std::uint32_t k) {
      if (crossed || testedBy[k] == i) return;
      testedBy[k] = i;
      const Corners t = cornersOf(mesh, ofQ[k]);
      if (overlap(sBox, boxOf(t, tol_m)) && facesCross(s, t, tol_m)) crossed = true;
    });
    if (crossed) {
      findings.overlaps.emplace(std::pair(p, q), "faces cross near " + formatVec(centroidOf(s)));
      return;
    }
  }
}

/// Tests the total winding number just off both sides of each triangle of
/// part p whose centroid is inside the box of a part in `others` (of a
/// cavity's triangles, also until one point is judged: a cavity must be
/// shown to be inside a solid).
void findNesting(const Mesh& mesh, std::span<const Part> parts, std::size_t p, std::span<const std::size_t> others,
                 const WindingRays& rays, double tol_m, Findings& findings) {
  const double offset_m = 4 * tol_m;  // off the surface, beyond touching
  bool judged = false;                // for a cavity: some point told where it is
  for (std::uint32_t t : parts[p].triangles) {
    const Corners c = cornersOf(mesh, t);
    const Vec3d g = centroidOf(c);
    const bool near = std::any_of(others.begin(), others.end(),
                                  [&](std::size_t q) { return contains(boxOf(parts[q].bounds, tol_m), g); });
    if (!near && (judged || parts[p].orientation >= 0)) continue;
    Vec3d n = cross(sub(c.p[1], c.p[0]), sub(c.p[2], c.p[0]));
    const double nLength = norm(n);
    n = {n.x / nLength * offset_m, n.y / nLength * offset_m, n.z / nLength * offset_m};
    std::vector<PartWinding> winding;
    for (const Vec3d& point : {Vec3d{g.x - n.x, g.y - n.y, g.z - n.z}, Vec3d{g.x + n.x, g.y + n.y, g.z + n.z}}) {
      if (!rays.windingAt(point, winding)) continue;  // on another surface, or every ray grazes an edge
      judged = true;
      int total = 0;
      for (const PartWinding& w : winding) total += w.winding;
      if (total == 0 || total == 1) continue;
      for (const PartWinding& w : winding) {
        if (total < 0 && w.winding < 0 && parts[w.part].orientation < 0) findings.inward.insert(w.part);
        if (total > 1 && w.winding > 0 && w.part != p)
          findings.overlaps.emplace(std::minmax(p, w.part), "one is inside the other near " + formatVec(point));
      }
    }
  }
  if (!judged && parts[p].orientation < 0) findings.inward.insert(p);
}

std::string describeBounds(const Part& part) {
  return formatPoint(part.bounds.min) + " to " + formatPoint(part.bounds.max);
}

[[noreturn]] void throwFindings(const Findings& findings, std::span<const Part> parts) {
  HullError::Counts counts;
  counts.inwardParts = findings.inward.size();
  counts.overlappingParts = findings.overlaps.size();
  std::ostringstream s;
  s << "keel::Hull: the parts do not make one solid (" << parts.size() << " parts):";
  if (!findings.overlaps.empty()) {
    const auto& [pair, where] = *findings.overlaps.begin();
    s << " " << findings.overlaps.size() << " pair(s) of parts overlap, first parts " << pair.first << " and "
      << pair.second << " overlap (part " << pair.first << " spans " << describeBounds(parts[pair.first]) << ", part "
      << pair.second << " spans " << describeBounds(parts[pair.second]) << "; " << where
      << "), so the volume they share would be counted twice: make them one closed surface (their union), or move "
         "them apart until they only touch;";
  }
  if (!findings.inward.empty()) {
    const std::size_t first = *findings.inward.begin();
    s << " " << findings.inward.size() << " part(s) wound inward (negative volume, first part " << first << ", "
      << parts[first].volume_m3 << " m^3) not wholly inside an outward part: a cavity must lie inside one, "
      << "else reverse their triangles;";
  }
  throw HullError(s.str(), counts);
}

/// Throws HullError when parts overlap and some part is a cavity: the union
/// of overlapping parts is taken with every part solid (column_union.cpp).
void refuseCavitiesAmongOverlaps(std::span<const Part> parts, std::size_t overlaps) {
  if (overlaps == 0) return;
  for (std::size_t p = 0; p < parts.size(); ++p)
    if (parts[p].orientation < 0) {
      HullError::Counts counts;
      counts.overlappingParts = overlaps;
      throw HullError("keel::Hull: " + std::to_string(overlaps) +
                          " pair(s) of parts overlap (accepted by HullOptions::overlappingParts), and part " +
                          std::to_string(p) + " (spanning " + describeBounds(parts[p]) +
                          ") is a cavity: cavities are not supported among overlapping parts; close it into "
                          "the solid, or make the overlapping parts one surface",
                      counts);
    }
}

}  // namespace

std::size_t checkPartNesting(const Mesh& mesh, std::span<const Part> parts, double touch_m, bool allowOverlaps) {
  Findings findings;
  // Parts whose boxes meet, and each part's such neighbours.
  std::vector<std::vector<std::size_t>> neighbours(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p)
    for (std::size_t q = p + 1; q < parts.size(); ++q)
      if (overlap(boxOf(parts[p].bounds, touch_m), boxOf(parts[q].bounds, touch_m))) {
        neighbours[p].push_back(q);
        neighbours[q].push_back(p);
        findCrossings(mesh, parts, p, q, touch_m, findings);
      }
  std::vector<std::uint32_t> involved;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (!neighbours[p].empty())
      involved.insert(involved.end(), parts[p].triangles.begin(), parts[p].triangles.end());
    else if (parts[p].orientation < 0)
      findings.inward.insert(p);  // alone: in no solid
  }
  if (!involved.empty()) {
    const WindingRays rays(mesh, parts, involved, touch_m);
    for (std::size_t p = 0; p < parts.size(); ++p)
      if (!neighbours[p].empty()) findNesting(mesh, parts, p, neighbours[p], rays, touch_m, findings);
  }
  if (allowOverlaps && findings.inward.empty()) {
    refuseCavitiesAmongOverlaps(parts, findings.overlaps.size());
    return findings.overlaps.size();
  }
  if (!findings.overlaps.empty() || !findings.inward.empty()) throwFindings(findings, parts);
  return 0;
}

}  // namespace keel::KEEL_ABI::detail::hull_build

// What WaterAction accepts as compartments: their fields and openings, and,
// against the boat's hull, where they lie (docs/flooding.md, "The model").
#include "flood/check.hpp"

#include "finite.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace keel::KEEL_ABI::detail {
namespace {

/// How far a compartment's bounds may reach past the hull's [m], as a
/// fraction of the hull's bounding diagonal, and how much its volume (or
/// all of theirs) may exceed the hull's, as a fraction of the hull's: the
/// slack simplifiedHull's tolerance needs (a simplified slice moves its
/// points by about the tolerance).
constexpr double kBoundsSlack = 0.01;
constexpr double kVolumeSlack = 0.01;
/// How deep inside another compartment a point must lie to count as
/// overlapping it, as a fraction of the pair's bounding diagonal: points on
/// a shared bulkhead lie on both.
constexpr double kInsideDepth = 1e-4;

[[noreturn]] void reject(const char* where, const std::vector<Compartment>& all, std::size_t i,
                         const std::string& what) {
  const std::string name = all[i].name.empty() ? "" : " \"" + all[i].name + "\"";
  throw std::invalid_argument(std::string(where) + ": compartment " + std::to_string(i) + name + ": " + what);
}

std::string m3(double v) { return std::to_string(v) + " m^3"; }

/// The point of triangle abc nearest `p` (Ericson, Real-Time Collision
/// Detection, 2005, §5.1.5: by the Voronoi regions of its corners and edges).
btVector3 nearestOnTriangle(const btVector3& p, const btVector3& a, const btVector3& b, const btVector3& c) {
  const btVector3 ab = b - a, ac = c - a, ap = p - a;
  const btScalar d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const btVector3 bp = p - b;
  const btScalar d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const btScalar vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const btVector3 cp = p - c;
  const btScalar d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const btScalar vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const btScalar va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const btScalar denominator = 1 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

/// Whether `p` lies inside the closed mesh `space`, at least `depth_m` from
/// its surface: its winding number, the solid angles its triangles subtend
/// over 4 pi (Van Oosterom and Strackee, "The solid angle of a plane
/// triangle", IEEE Trans. Biomed. Eng. 30(2), 1983), is 1 inside and 0
/// outside; near the surface it is not resolved, so such points are out.
bool deepInside(const btVector3& p, const Hull& space, double depth_m) {
  for (int k = 0; k < 3; ++k)
    if (!(p[k] > space.boundsMin()[k] + depth_m && p[k] < space.boundsMax()[k] - depth_m)) return false;
  const std::span<const btVector3> v = space.vertices();
  double angle = 0;
  for (const Hull::Triangle& t : space.triangles()) {
    if (p.distance(nearestOnTriangle(p, v[t[0]], v[t[1]], v[t[2]])) <= depth_m) return false;
    const btVector3 a = v[t[0]] - p, b = v[t[1]] - p, c = v[t[2]] - p;
    const double la = a.length(), lb = b.length(), lc = c.length();
    const double below = la * lb * lc + double(a.dot(b)) * lc + double(a.dot(c)) * lb + double(b.dot(c)) * la;
    angle += 2 * std::atan2(double(a.dot(b.cross(c))), below);
  }
  return angle / (4 * std::numbers::pi) > 0.5;
}

/// Whether the spaces of `a` and `b` overlap, by points of each: its
/// corners, the centre of each of its triangles moved inside by twice the
/// depth, and its centroid when inside it; one deep inside the other
/// overlaps. Spaces sharing a bulkhead have none (their points lie on it
/// or on their own side).
bool overlap(const Hull& a, const Hull& b) {
  btVector3 lo = a.boundsMin(), hi = a.boundsMax();
  lo.setMin(b.boundsMin()), hi.setMax(b.boundsMax());
  const double depth = kInsideDepth * double(lo.distance(hi));
  for (const auto& [one, other] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    const std::span<const btVector3> v = one->vertices();
    for (const btVector3& p : v)
      if (deepInside(p, *other, depth)) return true;
    for (const Hull::Triangle& t : one->triangles()) {
      const btVector3 outward = (v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]);  // counter-clockwise from outside
      const btVector3 centre = (v[t[0]] + v[t[1]] + v[t[2]]) / 3;
      if (deepInside(centre - outward.normalized() * btScalar(2 * depth), *other, depth)) return true;
    }
    if (deepInside(one->centroid_m(), *one, depth) && deepInside(one->centroid_m(), *other, depth)) return true;
  }
  return false;
}

void checkFields(const char* where, const std::vector<Compartment>& all, std::size_t i) {
  const Compartment& c = all[i];
  if (!c.space) reject(where, all, i, "no mesh (space is null)");
  // The floodwater's level is found by cutting the mesh's triangles,
  // which would count overlapping parts' shared volume twice.
  if (c.space->partsOverlap())
    reject(where, all, i, "its mesh has overlapping parts (HullOptions::overlappingParts); make it one surface");
  if (!(c.pumpRate_m3ps >= 0) || !std::isfinite(c.pumpRate_m3ps))
    reject(where, all, i, "pump rate must be >= 0 and finite, got " + std::to_string(c.pumpRate_m3ps) + " m^3/s");
  if (!(c.permeability > 0 && c.permeability <= 1))
    reject(where, all, i, "permeability must be in (0, 1], got " + std::to_string(c.permeability));
  if (!(c.water_m3 >= 0 && c.water_m3 <= capacityOf(c)))
    reject(where, all, i,
           "water " + m3(c.water_m3) + " is outside [0, " + m3(capacityOf(c)) +
               "] (its capacity: permeability times volume)");
  for (std::size_t k = 0; k < c.openings.size(); ++k) {
    const std::string problem = openingProblem(c.openings[k], i, all.size());
    if (!problem.empty()) reject(where, all, i, "opening " + std::to_string(k) + ": " + problem);
  }
}

/// A door or pipe is listed once, in either compartment it joins: the
/// same opening listed back (centres within half its size) would let the
/// water through twice.
void checkDoorsListedOnce(const char* where, const std::vector<Compartment>& all, std::size_t i) {
  for (std::size_t k = 0; k < all[i].openings.size(); ++k) {
    const Opening& o = all[i].openings[k];
    if (o.to == kSea || std::size_t(o.to) < i) continue;
    const std::vector<Opening>& back = all[std::size_t(o.to)].openings;
    for (std::size_t m = 0; m < back.size(); ++m)
      if (back[m].to == int(i) &&
          back[m].centre_m.distance(o.centre_m) < btScalar(0.5) * std::sqrt(std::min(o.area_m2, back[m].area_m2)))
        reject(where, all, i,
               "opening " + std::to_string(k) + " is a door to compartment " + std::to_string(o.to) +
                   ", which lists the same door back (its opening " + std::to_string(m) +
                   "): list a door once, in either compartment");
  }
}

void checkAgainstHull(const char* where, const std::vector<Compartment>& all, const Hull& hull) {
  const double slack_m = kBoundsSlack * double(hull.boundsMin().distance(hull.boundsMax()));
  const double limit_m3 = (1 + kVolumeSlack) * double(hull.volume_m3());
  double total_m3 = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Hull& s = *all[i].space;
    for (int k = 0; k < 3; ++k)
      if (double(s.boundsMin()[k]) < double(hull.boundsMin()[k]) - slack_m ||
          double(s.boundsMax()[k]) > double(hull.boundsMax()[k]) + slack_m)
        reject(where, all, i,
               "its bounds along body axis " + std::to_string(k) + ", [" + std::to_string(s.boundsMin()[k]) + ", " +
                   std::to_string(s.boundsMax()[k]) + "] m, reach past the hull's [" +
                   std::to_string(hull.boundsMin()[k]) + ", " + std::to_string(hull.boundsMax()[k]) +
                   "] m by more than " + std::to_string(slack_m) +
                   " m (1 % of its diagonal): it is not inside the hull");
    if (double(s.volume_m3()) > limit_m3)
      reject(where, all, i,
             "its volume " + m3(s.volume_m3()) + " exceeds the hull's " + m3(hull.volume_m3()) + " by more than 1 %");
    total_m3 += double(s.volume_m3());
  }
  if (total_m3 > limit_m3)
    throw std::invalid_argument(std::string(where) + ": the compartments' volumes add up to " + m3(total_m3) +
                                ", more than the hull's " + m3(hull.volume_m3()) + " by over 1 %: they overlap");
}

}  // namespace

std::string openingProblem(const Opening& o, std::size_t self, std::size_t count) {
  if (!isFinite(o.centre_m)) return "centre is not finite";
  if (!(o.area_m2 > 0) || !std::isfinite(o.area_m2))
    return "area must be positive and finite, got " + std::to_string(o.area_m2) + " m^2";
  if (!(o.dischargeCoefficient > 0 && o.dischargeCoefficient <= 1))
    return "discharge coefficient must be in (0, 1], got " + std::to_string(o.dischargeCoefficient);
  if (!(o.height_m >= 0) || !std::isfinite(o.height_m))
    return "height must be 0 (a square hole) or positive, got " + std::to_string(o.height_m) + " m";
  if (o.to != kSea && (o.to < 0 || std::size_t(o.to) >= count || std::size_t(o.to) == self))
    return "leads to compartment " + std::to_string(o.to) + ", which is not another compartment";
  return {};
}

void checkCompartments(const std::vector<Compartment>& all, const Hull* hull, const char* where) {
  for (std::size_t i = 0; i < all.size(); ++i) checkFields(where, all, i);
  for (std::size_t i = 0; i < all.size(); ++i) checkDoorsListedOnce(where, all, i);
  if (!hull) return;
  checkAgainstHull(where, all, *hull);
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      if (overlap(*all[i].space, *all[j].space))
        reject(where, all, i,
               "it overlaps compartment " + std::to_string(j) +
                   " (a corner or the centroid of one lies inside the other): the water would count twice");
}

}  // namespace keel::KEEL_ABI::detail

// WaterAction's compartments: setting them, holing the boat, and reading
// the flooding (docs/flooding.md).
#include <keel/water_action.hpp>

#include "flood/check.hpp"
#include "substep/substep.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

/// Distance [m] from `p` to the box [lo, hi] (0 inside).
btScalar distanceToBox(const btVector3& p, const btVector3& lo, const btVector3& hi) {
  btVector3 d(0, 0, 0);
  for (int k = 0; k < 3; ++k) d[k] = std::max({lo[k] - p[k], btScalar(0), p[k] - hi[k]});
  return d.length();
}

}  // namespace

void WaterAction::setCompartments(std::vector<Compartment> compartments) {
  detail::checkCompartments(compartments, hull_.get(), "keel::WaterAction::setCompartments");
  state_->flood.set(std::move(compartments));
}

const std::vector<Compartment>& WaterAction::compartments() const { return state_->flood.compartments; }

const FloodingStatus& WaterAction::flooding() const { return state_->flood.status; }

std::size_t WaterAction::openHole(const btVector3& point_world, btScalar area_m2, btScalar dischargeCoefficient) {
  if (!detail::isFinite(point_world)) throw std::invalid_argument("keel::WaterAction::openHole: point is not finite");
  const btVector3 p = body_->getCenterOfMassTransform().invXform(point_world);  // body frame
  const Opening hole{p, area_m2, dischargeCoefficient, 0, kSea};
  detail::FloodState& flood = state_->flood;
  const std::string problem = detail::openingProblem(hole, 0, 0);
  if (!problem.empty()) throw std::invalid_argument("keel::WaterAction::openHole: the hole's " + problem);
  if (flood.empty()) {
    // The whole hull as one compartment: its level is cut from its
    // triangles, which would count overlapping parts' shared volume twice.
    if (hull_->partsOverlap())
      throw std::invalid_argument(
          "keel::WaterAction::openHole: the boat has no compartments, and its hull has overlapping parts "
          "(HullOptions::overlappingParts), which cannot hold water as one space: give it compartments first "
          "(setCompartments)");
    flood.set({Compartment{"hull", hull_, {}, 0, 0, 1}});
  }
  std::size_t best = 0;
  btScalar bestOutside = BT_LARGE_FLOAT, bestCentre = BT_LARGE_FLOAT;
  for (std::size_t i = 0; i < flood.compartments.size(); ++i) {
    const Hull& s = *flood.compartments[i].space;
    const btScalar outside = distanceToBox(p, s.boundsMin(), s.boundsMax());
    const btScalar centre = p.distance(s.centroid_m());
    if (outside < bestOutside || (outside == bestOutside && centre < bestCentre))
      best = i, bestOutside = outside, bestCentre = centre;
  }
  // Only the openings change: the water stays as it is.
  flood.compartments[best].openings.push_back(hole);
  flood.seaU_m.push_back(0);
  flood.seaV_m.push_back(0);
  flood.seaHeight_m.push_back(0);
  flood.seaFlow_m3ps.push_back(0);
  return best;
}

}  // namespace keel::KEEL_ABI

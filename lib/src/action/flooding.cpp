// WaterAction's compartments: setting them, holing the boat, and reading
// the flooding (docs/flooding.md).
#include <keel/water_action.hpp>

#include "substep/substep.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

[[noreturn]] void reject(const std::vector<Compartment>& all, std::size_t i, const std::string& what) {
  const std::string name = all[i].name.empty() ? "" : " \"" + all[i].name + "\"";
  throw std::invalid_argument("keel::WaterAction::setCompartments: compartment " + std::to_string(i) + name + ": " +
                              what);
}

void checkOpening(const std::vector<Compartment>& all, std::size_t i, std::size_t k) {
  const Opening& o = all[i].openings[k];
  const std::string at = "opening " + std::to_string(k) + ": ";
  if (!detail::isFinite(o.centre_m)) reject(all, i, at + "centre is not finite");
  if (!(o.area_m2 > 0) || !std::isfinite(o.area_m2))
    reject(all, i, at + "area must be positive and finite, got " + std::to_string(o.area_m2) + " m^2");
  if (!(o.dischargeCoefficient > 0 && o.dischargeCoefficient <= 1))
    reject(all, i, at + "discharge coefficient must be in (0, 1], got " + std::to_string(o.dischargeCoefficient));
  if (!(o.height_m >= 0) || !std::isfinite(o.height_m))
    reject(all, i, at + "height must be 0 (a square hole) or positive, got " + std::to_string(o.height_m) + " m");
  if (o.to != kSea && (o.to < 0 || std::size_t(o.to) >= all.size() || std::size_t(o.to) == i))
    reject(all, i, at + "leads to compartment " + std::to_string(o.to) + ", which is not another compartment");
}

void checkCompartments(const std::vector<Compartment>& all) {
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Compartment& c = all[i];
    if (!c.space) reject(all, i, "no mesh (space is null)");
    // The floodwater's level is found by cutting the mesh's triangles,
    // which would count overlapping parts' shared volume twice.
    if (c.space->partsOverlap())
      reject(all, i, "its mesh has overlapping parts (HullOptions::overlappingParts); make it one surface");
    if (!(c.pumpRate_m3ps >= 0) || !std::isfinite(c.pumpRate_m3ps))
      reject(all, i, "pump rate must be >= 0 and finite, got " + std::to_string(c.pumpRate_m3ps) + " m^3/s");
    if (!(c.permeability > 0 && c.permeability <= 1))
      reject(all, i, "permeability must be in (0, 1], got " + std::to_string(c.permeability));
    if (!(c.water_m3 >= 0 && c.water_m3 <= c.permeability * c.space->volume_m3()))
      reject(all, i,
             "water " + std::to_string(c.water_m3) + " m^3 is outside [0, " +
                 std::to_string(c.permeability * c.space->volume_m3()) + "] m^3 (its permeability times its volume)");
    for (std::size_t k = 0; k < c.openings.size(); ++k) checkOpening(all, i, k);
  }
}

/// Distance [m] from `p` to the box [lo, hi] (0 inside).
btScalar distanceToBox(const btVector3& p, const btVector3& lo, const btVector3& hi) {
  btVector3 d(0, 0, 0);
  for (int k = 0; k < 3; ++k) d[k] = std::max({lo[k] - p[k], btScalar(0), p[k] - hi[k]});
  return d.length();
}

}  // namespace

void WaterAction::setCompartments(std::vector<Compartment> compartments) {
  checkCompartments(compartments);
  state_->flood.set(std::move(compartments));
}

const std::vector<Compartment>& WaterAction::compartments() const { return state_->flood.compartments; }

const FloodingStatus& WaterAction::flooding() const { return state_->flood.status; }

std::size_t WaterAction::openHole(const btVector3& point_world, btScalar area_m2, btScalar dischargeCoefficient) {
  if (!detail::isFinite(point_world)) throw std::invalid_argument("keel::WaterAction::openHole: point is not finite");
  const btVector3 p = body_->getCenterOfMassTransform().invXform(point_world);  // body frame
  const Opening hole{p, area_m2, dischargeCoefficient, 0, kSea};
  detail::FloodState& flood = state_->flood;
  std::vector<Compartment> probe{Compartment{"hull", hull_, {hole}, 0, 0, 1}};
  try {
    checkCompartments(probe);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("keel::WaterAction::openHole: ") + e.what());
  }
  if (flood.empty()) {
    probe[0].openings.clear();
    flood.set(std::move(probe));
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
  return best;
}

}  // namespace keel::KEEL_ABI

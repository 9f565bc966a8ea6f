// keel_fuzz flooding: random compartments (valid and not), openings, pumps,
// holes, seas (NaN, 1e30, throwing) and time steps through WaterAction.
// Each case's compartments are refused with a std::invalid_argument naming
// the field that is wrong, or accepted; then after every substep and prime
// each compartment's water lies within [0, its capacity], the water gained
// equals the water taken from the sea, the force is finite, and priming or
// a bad time step moves no water.
#include "fuzz.hpp"
#include "test_hulls.hpp"

#include <keel/hull_slice.hpp>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::test::fuzz {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The hulls, and compartments that fit each (bulkhead and centreline slices).
struct Shapes {
  std::array<std::shared_ptr<const Hull>, 3> hulls{
      hullOf(box(btVector3(4, 2, 4))), hullOf(boatHull(10, btScalar(3.5), btScalar(2.5))), hullOf(icosphere(2, 2))};
  std::array<std::vector<std::vector<Compartment>>, 3> slices;
  Shapes() {
    for (std::size_t h = 0; h < hulls.size(); ++h) {
      const Hull& hull = *hulls[h];
      const double lo = double(hull.boundsMin().x()), hi = double(hull.boundsMax().x());
      for (int n = 1; n <= 3; ++n) {
        std::vector<btScalar> at;
        for (int k = 1; k <= n; ++k) at.push_back(btScalar(lo + (hi - lo) * k / (n + 1)));
        slices[h].push_back(bulkheadCompartments(hull, btVector3(1, 0, 0), at));
        slices[h].push_back(sideCompartments(hull, btVector3(1, 0, 0), at, btVector3(0, 0, 1), btScalar(0.001)));
      }
    }
  }
};

/// A random opening of compartment `self` among `count`, inside `space`'s bounds.
Opening randomOpening(Random& r, const Hull& space, int self, int count) {
  Opening o;
  for (int k = 0; k < 3; ++k)
    o.centre_m[k] = btScalar(uniform(r, double(space.boundsMin()[k]), double(space.boundsMax()[k])));
  o.area_m2 = btScalar(std::pow(10.0, uniform(r, -4, 4)));
  o.dischargeCoefficient = btScalar(uniform(r, 0.05, 1));
  o.height_m = integer(r, 0, 1) == 0 ? 0 : btScalar(uniform(r, 0.01, 3));
  o.to = kSea;
  if (count > 1 && integer(r, 0, 2) == 0) {
    o.to = integer(r, 0, count - 2);
    if (o.to >= self) ++o.to;
  }
  return o;
}

/// Valid compartments for hull `h`: boxes in slabs of the box hull, or
/// slices of any, with random water, pumps, permeabilities and openings.
std::vector<Compartment> validLayout(Random& r, const Shapes& shapes, std::size_t h) {
  std::vector<Compartment> all;
  if (h == 0 && integer(r, 0, 1) == 0) {
    const int n = integer(r, 1, 4);
    for (int k = 0; k < n; ++k) {  // slab k of [-2, 2] along x
      const double w = 4.0 / n, x0 = -2 + k * w;
      const btVector3 size(btScalar(w * uniform(r, 0.3, 1)), btScalar(uniform(r, 0.3, 2)),
                           btScalar(uniform(r, 0.3, 4)));
      const btVector3 centre(btScalar(x0 + w / 2), btScalar(uniform(r, -1, 1) * (1 - double(size.y()) / 2)), 0);
      all.push_back(Compartment{"box " + std::to_string(k), hullOf(box(size, 1, centre)), {}, 0, 0, 1});
    }
  } else {
    const auto& sets = shapes.slices[h];
    all = sets[std::size_t(integer(r, 0, int(sets.size()) - 1))];
  }
  const int n = int(all.size());
  for (int i = 0; i < n; ++i) {
    Compartment& c = all[std::size_t(i)];
    c.permeability = btScalar(uniform(r, 0.05, 1));
    if (integer(r, 0, 3) == 0) c.permeability = 1;
    const double capacity = double(c.permeability * c.space->volume_m3());
    const int fill = integer(r, 0, 3);
    c.water_m3 = fill == 0 ? 0
                           : (fill == 1 ? c.permeability * c.space->volume_m3() : btScalar(uniform(r, 0, capacity)));
    c.pumpRate_m3ps = integer(r, 0, 2) == 0 ? btScalar(std::pow(10.0, uniform(r, -4, 1))) : 0;
    const int openings = integer(r, 0, 3);
    for (int k = 0; k < openings; ++k) c.openings.push_back(randomOpening(r, *c.space, i, n));
  }
  // A door listed in both the compartments it joins is refused: keep one.
  for (int i = 0; i < n; ++i)
    for (Opening& o : all[std::size_t(i)].openings)
      if (o.to > i) o.to = kSea;
  return all;
}

/// Breaks `all` in one random way; returns the word its refusal must hold.
const char* breakOne(Random& r, std::vector<Compartment>& all, const Hull& hull) {
  if (all.empty())
    all.push_back(Compartment{"only", hullOf(box(btVector3(1, 1, 1) / 2, 1, hull.centroid_m())), {}, 0, 0, 1});
  Compartment& c = all[std::size_t(integer(r, 0, int(all.size()) - 1))];
  const int self = int(&c - all.data());
  if (c.openings.empty()) c.openings.push_back(randomOpening(r, *c.space, self, 1));  // to the sea: no second fault
  Opening& o = c.openings[std::size_t(integer(r, 0, int(c.openings.size()) - 1))];
  const double bad[] = {kNaN, -1, 0, 1e30, -std::numeric_limits<double>::infinity()};
  const auto badValue = [&] { return btScalar(bad[integer(r, 0, 4)]); };
  switch (integer(r, 0, 11)) {
    case 0: c.space = nullptr; return "no mesh";
    case 1: c.permeability = integer(r, 0, 1) ? badValue() : btScalar(1.5); return "permeability";
    case 2: c.pumpRate_m3ps = integer(r, 0, 1) ? btScalar(kNaN) : btScalar(-1); return "pump rate";
    case 3:
      c.water_m3 = integer(r, 0, 1) ? btScalar(kNaN)
                                    : std::nextafter(c.permeability * c.space->volume_m3(), btScalar(1e30));
      return "water";
    case 4: o.area_m2 = integer(r, 0, 1) ? btScalar(kNaN) : btScalar(-uniform(r, 0, 1)); return "area";
    case 5: o.dischargeCoefficient = integer(r, 0, 1) ? btScalar(kNaN) : btScalar(1.01); return "discharge";
    case 6: o.height_m = integer(r, 0, 1) ? btScalar(kNaN) : btScalar(-0.5); return "height";
    case 7: o.to = integer(r, 0, 1) ? self : int(all.size()); return "leads to compartment";
    case 8: o.centre_m.setY(btScalar(kNaN)); return "centre";
    case 9:
      c.space = hullOf(box(btVector3(1, 1, 1), 1, btVector3(1000, 0, 0)));
      c.water_m3 = 0;
      return "not inside the hull";
    case 10: {
      Compartment twin = c;
      twin.openings.clear();
      all.push_back(twin);
      return "overlap";
    }
    default: {
      if (all.size() < 2) return breakOne(r, all, hull);
      const Opening door{all[1].space->centroid_m(), btScalar(0.5), btScalar(0.6), 0, 1};
      all[0].openings.push_back(door);
      all[1].openings.push_back(Opening{door.centre_m, door.area_m2, door.dischargeCoefficient, 0, 0});
      return "list a door once";
    }
  }
}

/// A random sea: flat, waves, deep over the boat, or answering NaN or
/// +-1e30 or throwing in places.
std::shared_ptr<const WaterSurface> randomSea(Random& r) {
  switch (integer(r, 0, 5)) {
    case 0: return std::make_shared<FlatSurface>(uniform(r, -3, 3));
    case 1: return gerstnerSea(uniform(r, 0.5, 6), uniform(r, 4, 12), 6, std::uint32_t(integer(r, 0, 1000)), 0.8);
    case 2: return std::make_shared<FlatSurface>(uniform(r, 20, 80));
    default: {
      const int kind = integer(r, 0, 2);
      const double x0 = uniform(r, -3, 3), level = uniform(r, -1, 1);
      return std::make_shared<FunctionSurface>([kind, x0, level](btScalar u, btScalar, double) -> btScalar {
        if (double(u) < x0) return btScalar(level);
        if (kind == 0) return std::numeric_limits<btScalar>::quiet_NaN();
        if (kind == 1) return btScalar(u > 0 ? 1e30 : -1e30);
        throw std::runtime_error("the user's sea threw");
      });
    }
  }
}

/// What is wrong with the boat's flooding after a call, or empty.
std::string brokenInvariant(const WaterAction& boat) {
  const FloodingStatus& f = boat.flooding();
  double gained = 0, capacity = 0;
  for (std::size_t i = 0; i < f.compartments.size(); ++i) {
    const CompartmentStatus& c = f.compartments[i];
    if (!(c.water_m3 >= 0 && c.water_m3 <= double(c.capacity_m3)))
      return "compartment " + std::to_string(i) + ": water " + std::to_string(c.water_m3) + " outside [0, " +
             std::to_string(c.capacity_m3) + "]";
    gained += c.water_m3 - double(boat.compartments()[i].water_m3);
    capacity += double(c.capacity_m3);
  }
  if (!(std::abs(gained - f.takenFromSea_m3) <= 1e-12 * (1 + capacity)))
    return "water balance: gained " + std::to_string(gained) + ", taken from the sea " +
           std::to_string(f.takenFromSea_m3);
  const ForceTorque& t = boat.totalForce();
  if (!std::isfinite(t.force_N.length()) || !std::isfinite(t.torque_Nm.length()) ||
      !std::isfinite(f.floodwaterMass_kg) || !std::isfinite(f.reserveBuoyancy_kg))
    return "non-finite force or mass";
  return {};
}

/// A boat's body, held by the fuzzer (no world steps it).
struct Body {
  btBoxShape shape;
  std::unique_ptr<btRigidBody> body;
  Body(const Hull& hull, Random& r) : shape((hull.boundsMax() - hull.boundsMin()) / 2) {
    const btScalar mass = btScalar(uniform(r, 0.2, 1.2) * 1025 * double(hull.volume_m3()));
    btVector3 inertia;
    shape.calculateLocalInertia(mass, inertia);
    body = std::make_unique<btRigidBody>(btRigidBody::btRigidBodyConstructionInfo(mass, nullptr, &shape, inertia));
    body->setGravity(btVector3(0, -kG, 0));
    body->setActivationState(DISABLE_DEACTIVATION);
  }
  void move(Random& r) {
    const btQuaternion q(btVector3(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)), 1).normalized(),
                         btScalar(integer(r, 0, 4) == 0 ? uniform(r, -3.2, 3.2) : uniform(r, -0.3, 0.3)));
    body->setCenterOfMassTransform(btTransform(q, btVector3(0, btScalar(uniform(r, -3, 3)), 0)));
  }
};

/// One case's calls: substeps, primes, bad time steps and holes; the
/// broken invariant, or empty.
std::string runCase(Random& r, WaterAction& boat, Body& b, const Hull& hull) {
  const int calls = integer(r, 1, 30);
  for (int k = 0; k < calls; ++k) {
    if (integer(r, 0, 3) == 0) b.move(r);
    const std::vector<double> before = [&] {
      std::vector<double> w;
      for (const CompartmentStatus& c : boat.flooding().compartments) w.push_back(c.water_m3);
      return w;
    }();
    const int what = integer(r, 0, 9);
    const btScalar dt = btScalar(std::pow(10.0, uniform(r, -5, -0.3)));
    if (what == 0 || what == 1) {  // no time passes, or none that counts
      if (what == 0)
        boat.prime(dt);
      else
        boat.updateAction(nullptr, integer(r, 0, 1) ? btScalar(kNaN) : btScalar(-dt));
      for (std::size_t i = 0; i < before.size(); ++i)
        if (boat.flooding().compartments[i].water_m3 != before[i]) return "water moved with no time passing";
    } else if (what == 2) {
      btVector3 p;
      for (int a = 0; a < 3; ++a) p[a] = btScalar(uniform(r, double(hull.boundsMin()[a]), double(hull.boundsMax()[a])));
      const bool good = integer(r, 0, 4) > 0;
      try {
        (void)boat.openHole(b.body->getCenterOfMassTransform() * p,
                            good ? btScalar(std::pow(10.0, uniform(r, -3, 3))) : btScalar(-1));
        if (!good) return "a hole of -1 m^2 accepted";
      } catch (const std::invalid_argument& e) {
        if (good || std::string(e.what()).find("area") == std::string::npos)
          return std::string("openHole refused: ") + e.what();
      }
    } else {
      boat.updateAction(nullptr, dt);
    }
    const std::string broken = brokenInvariant(boat);
    if (!broken.empty()) return broken + " (call " + std::to_string(k) + ")";
  }
  return {};
}

}  // namespace

int flooding(long count, std::uint64_t seed, long first) {
  const Shapes shapes;
  long failed = 0, refused = 0, ran = 0, wet = 0;
  for (long i = first; i < first + count; ++i) {
    Random r(seed * 1000003 + std::uint64_t(i));  // each case its own stream: FIRST replays it
    const std::size_t h = std::size_t(integer(r, 0, 2));
    const Hull& hull = *shapes.hulls[h];
    std::vector<Compartment> all = integer(r, 0, 5) == 0 ? std::vector<Compartment>{} : validLayout(r, shapes, h);
    const char* fault = integer(r, 0, 3) == 0 ? breakOne(r, all, hull) : nullptr;
    Body b(hull, r);
    b.move(r);
    WaterAction boat(b.body.get(), shapes.hulls[h], randomSea(r));
    std::string broken;
    try {
      boat.setCompartments(all);
      if (fault) broken = std::string("accepted compartments that are wrong: ") + fault;
    } catch (const std::invalid_argument& e) {
      ++refused;
      if (!fault || std::string(e.what()).find(fault) == std::string::npos)
        broken = std::string("refused, expected \"") + (fault ? fault : "no refusal") + "\": " + e.what();
    }
    if (broken.empty() && !fault) {
      broken = runCase(r, boat, b, hull);
      ++ran;
      for (const CompartmentStatus& c : boat.flooding().compartments) wet += c.water_m3 > 0 ? 1 : 0;
    }
    if (!broken.empty()) {
      ++failed;
      if (failed <= 20) std::printf("case %ld: %s\n", i, broken.c_str());
    }
  }
  std::printf("flooding: %ld cases, %ld refused as they should be, %ld run (%ld compartments wet at the end)\n", count,
              refused, ran, wet);
  std::printf("%ld passed, %ld failed\n", count - failed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace keel::test::fuzz

#include "debris.hpp"

#include "harbour.hpp"

#include <keel/constants.hpp>

#include <BulletDynamics/Dynamics/btDynamicsWorld.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <random>

namespace demo {
namespace {

/// btCollisionObject::getUserIndex2() of debris (the harbour tags docks 1 and
/// boats 2): its contact counts and collision holing leave debris out.
constexpr int kTagDebris = 3;
/// A piece whose top is this far under the local surface has sunk [m]:
/// everything here is lighter than water and must float.
constexpr double kSunkDepth_m = 0.5;

/// Where a piece goes: world (x, z) [m] and its kind (index into debrisTypes()).
struct Spot {
  double x_m, z_m;
  std::size_t type;
};
enum Kind : std::size_t { Crate, FishBox, SmallCrate, BigCrate, Buoy, FenderBall, Dinghy };

/// The harbour: round the first boat (a speedboat at (2, -8) bow north, the
/// one the camera starts on and the player drives), between it and the
/// camera, and up the fairway ahead of it; then the rest of the basin.
const std::vector<Spot> kHarbourSpots = {
    {-3, -1, Crate},      {6, 2, Buoy},          {0.5, 3.5, FishBox}, {-8, -3, Dinghy},
    {5, -15, FenderBall}, {-2, -17, SmallCrate}, {9, -21, BigCrate},  {-6, -25, FishBox},
    {12, -6, Crate},      {-12, -12, Buoy},      {14, 9, SmallCrate}, {-14, 12, FenderBall},
    {1, 18, BigCrate},    {28, 12, FishBox},     {-32, -6, Dinghy},   {34, -22, Crate},
};
/// The collide scenario: in the speedboat's run up to the pier head (x -22
/// from z 22) and the catamaran's at the rowboat (z 20 from x 22, its hulls
/// 2.6 m either side), so that the driven boats push them aside.
const std::vector<Spot> kCollideSpots = {
    {-22, 12, Crate}, {15, 20, BigCrate}, {-21.4, 4, FishBox},
    {17, 17.4, Buoy}, {13, 22.6, Dinghy}, {-22.6, -2, FenderBall},
};
/// The wake scenario: beside the speedboat's track (x -12, north from z 14),
/// where its wake reaches them within a few seconds.
const std::vector<Spot> kWakeSpots = {
    {-17, 6, Buoy},
    {-3, 4, FenderBall},
    {-18, -2, Crate},
    {-5, -6, FishBox},
};

bool finite(const btVector3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

}  // namespace

Debris& DebrisField::add(std::shared_ptr<const DebrisType> type, double x_m, double z_m, double yaw_rad,
                         std::shared_ptr<const keel::WaterSurface> sea, double time_s, double substep_s) {
  auto piece = std::make_unique<Debris>();
  piece->id = nextId_++;
  piece->type = std::move(type);
  const DebrisType& t = *piece->type;
  // Level at its draft on the water there: the design frame's lowest point
  // that far under the surface.
  const btScalar water = sea->height(btScalar(x_m), btScalar(z_m), time_s);
  const btTransform designInWorld(btQuaternion(btVector3(0, 1, 0), btScalar(yaw_rad)),
                                  btVector3(btScalar(x_m), water - btScalar(t.draft_m + t.bottom_m), btScalar(z_m)));
  piece->motion = std::make_unique<btDefaultMotionState>(designInWorld * t.designToBody.inverse());
  btRigidBody::btRigidBodyConstructionInfo info(btScalar(t.mass_kg), piece->motion.get(), t.shape.get(),
                                                t.inertia_kgm2);
  info.m_friction = 0.6f;
  info.m_restitution = 0.1f;
  piece->body = std::make_unique<btRigidBody>(info);
  piece->body->setUserIndex(piece->id);
  piece->body->setUserIndex2(kTagDebris);
  piece->body->setActivationState(DISABLE_DEACTIVATION);  // the waves move it all the time
  // A boat's bow can hit it hard: no passing through a pile in one substep.
  piece->body->setCcdMotionThreshold(btScalar(t.thinnest_m * 0.5));
  piece->body->setCcdSweptSphereRadius(btScalar(t.thinnest_m * 0.4));
  world_.addRigidBody(piece->body.get());

  keel::HydrostaticSettings settings;
  settings.waterDensity_kgpm3 = btScalar(keel::kSeaWaterDensity_kgpm3);
  piece->action = std::make_unique<keel::WaterAction>(piece->body.get(), t.hull, std::move(sea), settings);
  // The water's inertia: a body lighter than the water it carries along is
  // stable only with it (docs/model.md, "Added mass").
  keel::HydrodynamicSettings h = piece->action->hydrodynamicSettings();
  h.addedMass = true;
  piece->action->setHydrodynamics(h);
  piece->action->setTime(time_s);
  piece->action->prime(btScalar(substep_s));
  world_.addAction(piece->action.get());
  pieces_.push_back(std::move(piece));
  return *pieces_.back();
}

void DebrisField::scatter(int count, const std::string& scenario,
                          const std::function<bool(double, double, double)>& free, std::uint32_t seed,
                          const Basin& basin, const std::shared_ptr<const keel::WaterSurface>& sea, double time_s,
                          double substep_s) {
  std::vector<Spot> spots = scenario == "collide" ? kCollideSpots
                            : scenario == "wake"  ? kWakeSpots
                                                  : std::vector<Spot>{};
  spots.insert(spots.end(), kHarbourSpots.begin(), kHarbourSpots.end());
  // Its own random numbers: the boats' placement does not depend on the debris.
  std::mt19937 random(seed ^ 0x5eedu);
  std::uniform_real_distribution<double> x(basin.minX_m + 6, basin.maxX_m - 6), z(basin.minZ_m + 6, basin.maxZ_m - 4);
  std::uniform_real_distribution<double> yaw(0, 2 * std::numbers::pi);
  const auto& types = debrisTypes();
  for (int i = 0; i < count; ++i) {
    Spot spot{0, 0, std::size_t(i) % types.size()};
    if (std::size_t(i) < spots.size()) {
      spot = spots[std::size_t(i)];
    } else {
      const double radius = double(types[spot.type]->hull->radius_m());
      for (int attempt = 0; attempt < 50; ++attempt) {
        spot.x_m = x(random), spot.z_m = z(random);
        if (free(spot.x_m, spot.z_m, radius)) break;
      }
    }
    add(types[spot.type], spot.x_m, spot.z_m, yaw(random), sea, time_s, substep_s);
  }
}

void DebrisField::clear() {
  for (auto& piece : pieces_) {
    world_.removeAction(piece->action.get());
    world_.removeRigidBody(piece->body.get());
  }
  pieces_.clear();
}

void DebrisField::track() {
  for (auto& piece : pieces_) {
    const btRigidBody& body = *piece->body;
    const btVector3 v = body.getLinearVelocity(), w = body.getAngularVelocity();
    const btTransform& pose = body.getCenterOfMassTransform();
    const btQuaternion q = pose.getRotation();
    piece->finite = piece->finite && finite(v) && finite(w) && finite(pose.getOrigin()) && std::isfinite(q.x()) &&
                    std::isfinite(q.y()) && std::isfinite(q.z()) && std::isfinite(q.w());
    piece->maxSpeed_mps = std::max(piece->maxSpeed_mps, double(v.length()));
    piece->maxSpin_radps = std::max(piece->maxSpin_radps, double(w.length()));
  }
}

bool reportDebris(const DebrisField& field, const keel::WaterSurface& sea, double time_s, const Basin& basin) {
  const auto& pieces = field.pieces();
  if (pieces.empty()) {
    std::printf("debris: none\n");
    return true;
  }
  std::map<std::string, int> kinds;
  std::size_t sunk = 0, outside = 0;
  double fastest_mps = 0, fastestSpin_radps = 0;
  // The water each carries now, over its own mass: what Bullet holds less
  // what the piece weighs (docs/integration.md, "Added mass").
  double leastCarried = 1e300, mostCarried = 0;
  std::string problems;
  for (const auto& piece : pieces) {
    ++kinds[piece->type->kind];
    const btVector3 p = piece->body->getCenterOfMassPosition();
    const std::string name = piece->type->kind + " #" + std::to_string(piece->id);
    const double own_kg = double(piece->action->ownMass_kg());
    const double carried = (double(piece->body->getMass()) - own_kg) / own_kg;
    leastCarried = std::min(leastCarried, carried), mostCarried = std::max(mostCarried, carried);
    fastest_mps = std::max(fastest_mps, piece->maxSpeed_mps);
    fastestSpin_radps = std::max(fastestSpin_radps, piece->maxSpin_radps);
    char line[160];
    if (!piece->finite) problems += "  " + name + " went non-finite\n";
    if (piece->maxSpeed_mps > DebrisField::kMaxSpeed_mps || piece->maxSpin_radps > DebrisField::kMaxSpin_radps) {
      std::snprintf(line, sizeof line, "  %s diverged: %.1f m/s, %.1f rad/s\n", name.c_str(), piece->maxSpeed_mps,
                    piece->maxSpin_radps);
      problems += line;
    }
    const double water = double(sea.height(p.x(), p.z(), time_s));
    if (double(p.y() + piece->type->hull->radius_m()) < water - kSunkDepth_m)
      ++sunk, problems += "  " + name + " sank\n";
    if (p.x() < basin.minX_m || p.x() > basin.maxX_m || p.z() < basin.minZ_m || p.z() > basin.maxZ_m + 8)
      ++outside, problems += "  " + name + " left the harbour\n";
  }
  std::string list;
  for (const auto& [kind, n] : kinds) list += (list.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  std::printf("debris: %zu (%s); afloat %zu, sunk %zu, outside the harbour %zu\n", pieces.size(), list.c_str(),
              pieces.size() - sunk, sunk, outside);
  std::printf("debris added mass: %s, the water carried now %.2f to %.2f times their own mass\n",
              pieces.front()->action->hydrodynamicSettings().addedMass ? "on" : "off", leastCarried, mostCarried);
  std::printf("debris motion: fastest %.2f m/s, %.2f rad/s (diverged above %.0f m/s or %.0f rad/s)\n", fastest_mps,
              fastestSpin_radps, DebrisField::kMaxSpeed_mps, DebrisField::kMaxSpin_radps);
  std::fputs(problems.c_str(), stdout);
  return problems.empty();
}

}  // namespace demo

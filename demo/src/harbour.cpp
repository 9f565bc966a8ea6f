#include "harbour.hpp"

#include "debris.hpp"
#include "far_boats.hpp"
#include "flooding.hpp"

#include <keel/attitude.hpp>
#include <keel/constants.hpp>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace demo {
namespace {

constexpr double kGravity_mps2 = 9.81;
constexpr double kKnot_mps = 1852.0 / 3600.0;
constexpr double kDeg = 180.0 / std::numbers::pi;

/// Tags in btCollisionObject::getUserIndex2(): what a body is.
constexpr int kTagDock = 1;
constexpr int kTagBoat = 2;
/// A contact that changes a boat's speed by more than this in one substep
/// holes it [m/s], with a hole of this area [m^2].
constexpr double kHoleSpeed_mps = 2.5;
constexpr double kCollisionHole_m2 = 0.02;
/// The sinking scenario holes its boat from this time [s], one section more
/// each interval (both sides of the centreline), stern first: it trims by
/// the stern and sinks.
constexpr double kScuttleTime_s = 0.5;
constexpr double kScuttleInterval_s = 0.75;
constexpr double kScuttleHole_m2 = 0.6;
constexpr int kCompartments = 4;
/// A boat whose deck is this far under the local surface has gone down [m].
constexpr double kSunkDepth_m = 0.5;

/// Heights of the harbour's structures [m] (the still water is at 0).
constexpr double kSeabed_m = -12;
constexpr double kQuayTop_m = 1.8;
constexpr double kPierDeckTop_m = 1.35;
constexpr double kPierDeckThickness_m = 0.3;
constexpr double kPileRadius_m = 0.25;
constexpr double kPileSpacing_m = 5;

/// A heading in compass degrees (0 north = -z, 90 east = +x) as a rotation
/// of the boat's bow (+x in the body frame) about +y.
btQuaternion headingRotation(double heading_deg) {
  const double yaw = (90.0 - heading_deg) / kDeg;  // 90 east: bow along +x needs no turn
  return btQuaternion(btVector3(0, 1, 0), btScalar(yaw));
}

/// The water frame of a y-up world (u = x, v = z).
btScalar surfaceHeight(const keel::WaterSurface& sea, const btVector3& p, double t_s) {
  return sea.height(p.x(), p.z(), t_s);
}

/// A pier running north from the quay: deck on two rows of piles, with two
/// wales (rubbing timbers) along each side that stop boats slipping between
/// the piles or under the deck.
void addPier(std::vector<DockPiece>& out, double westX_m, double eastX_m, double southZ_m, double northZ_m) {
  const double cx = (westX_m + eastX_m) / 2, hx = (eastX_m - westX_m) / 2;
  const double cz = (southZ_m + northZ_m) / 2, hz = (southZ_m - northZ_m) / 2;
  const double deckMid = kPierDeckTop_m - kPierDeckThickness_m / 2;
  out.push_back({DockPiece::Shape::Box,
                 {btScalar(cx), btScalar(deckMid), btScalar(cz)},
                 {btScalar(hx + 0.1), btScalar(kPierDeckThickness_m / 2), btScalar(hz + 0.1)},
                 "wood"});
  const double pileBottom = kSeabed_m, pileTop = kPierDeckTop_m - kPierDeckThickness_m;
  const double pileMid = (pileBottom + pileTop) / 2, pileHalf = (pileTop - pileBottom) / 2;
  for (double z = southZ_m; z >= northZ_m - 1e-6; z -= kPileSpacing_m)
    for (double x : {westX_m, eastX_m})
      out.push_back({DockPiece::Shape::Cylinder,
                     {btScalar(x), btScalar(pileMid), btScalar(z)},
                     {btScalar(kPileRadius_m), btScalar(pileHalf), btScalar(kPileRadius_m)},
                     "pile"});
  // Wales: outside the piles, one at the waterline, one below it.
  for (double x : {westX_m - kPileRadius_m - 0.1, eastX_m + kPileRadius_m + 0.1})
    for (double y : {0.35, -0.55})
      out.push_back({DockPiece::Shape::Box,
                     {btScalar(x), btScalar(y), btScalar(cz)},
                     {0.1f, 0.2f, btScalar(hz + kPileRadius_m)},
                     "fender"});
  // The pier head: a fender across the end.
  for (double y : {0.35, -0.55})
    out.push_back({DockPiece::Shape::Box,
                   {btScalar(cx), btScalar(y), btScalar(southZ_m + kPileRadius_m + 0.1)},
                   {btScalar(hx + kPileRadius_m + 0.2), 0.2f, 0.1f},
                   "fender"});
  // Bollards along both edges, every other pile.
  for (double z = southZ_m - 2.5; z >= northZ_m; z -= 2 * kPileSpacing_m)
    for (double x : {westX_m + 0.35, eastX_m - 0.35})
      out.push_back({DockPiece::Shape::Cylinder,
                     {btScalar(x), btScalar(kPierDeckTop_m + 0.25), btScalar(z)},
                     {0.15f, 0.25f, 0.15f},
                     "bollard"});
}

}  // namespace

Harbour::Harbour(const Options& options, std::map<std::string, std::shared_ptr<const BoatType>> types)
    : options_(options),
      types_(std::move(types)),
      seaState_(options.seaState),
      random_(options.seed),
      wakes_(options.wakes, options.wakeSize_m, options.wakeCell_m, basin_),
      effects_(options.effects) {
  (void)parseSeaModel(options_.sea, seaModel_);  // validated with the options
  modelChoice_ = options_.model == "triangles" ? ModelChoice::AllTriangles
                 : options_.model == "columns" ? ModelChoice::AllColumns
                                               : ModelChoice::ByDistance;
  sea_ = std::make_shared<SwitchableSea>(makeSeaSurface(seaState_, options_.seed, seaModel_));
  wakes_.reset(sea_);
  collisionConfig_ = std::make_unique<btDefaultCollisionConfiguration>();
  dispatcher_ = std::make_unique<btCollisionDispatcher>(collisionConfig_.get());
  broadphase_ = std::make_unique<btDbvtBroadphase>();
  solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
  world_ = std::make_unique<HarbourWorld>(dispatcher_.get(), broadphase_.get(), solver_.get(), collisionConfig_.get());
  world_->setGravity(btVector3(0, btScalar(-kGravity_mps2), 0));
  world_->setInternalTickCallback(&Harbour::preTick, this, true);
  world_->setInternalTickCallback(&Harbour::postTick, this, false);
  damage_ = std::make_unique<game::HardContactHoles>(*world_, btScalar(kHoleSpeed_mps), btScalar(kCollisionHole_m2));
  debris_ = std::make_unique<DebrisField>(*world_);
  buildDocks();
  placeScenario();
}

Harbour::~Harbour() {
  removeAllBoats();
  for (auto& body : dockBodies_) world_->removeRigidBody(body.get());
}

void Harbour::buildDocks() {
  const auto box = [&](double x0, double x1, double y0, double y1, double z0, double z1, const char* material) {
    docks_.push_back({DockPiece::Shape::Box,
                      {btScalar((x0 + x1) / 2), btScalar((y0 + y1) / 2), btScalar((z0 + z1) / 2)},
                      {btScalar((x1 - x0) / 2), btScalar((y1 - y0) / 2), btScalar((z1 - z0) / 2)},
                      material});
  };
  const Basin& b = basin_;
  // The quay along the north side, with a stone face at the water.
  box(-80, 80, kSeabed_m, kQuayTop_m, b.minZ_m - 14, b.minZ_m, "concrete");
  // Breakwaters: west, east, and the south arms either side of the mouth.
  box(b.minX_m - 12, b.minX_m, kSeabed_m, 2.4, b.minZ_m, b.maxZ_m + 8, "stone");
  box(b.maxX_m, b.maxX_m + 12, kSeabed_m, 2.4, b.minZ_m, b.maxZ_m + 8, "stone");
  box(b.minX_m, -14, kSeabed_m, 2.4, b.maxZ_m, b.maxZ_m + 8, "stone");
  box(14, b.maxX_m, kSeabed_m, 2.4, b.maxZ_m, b.maxZ_m + 8, "stone");
  addPier(docks_, -24, -20, -8, b.minZ_m);
  addPier(docks_, 22, 25, -18, b.minZ_m);
  for (const DockPiece& piece : docks_) addDock(piece);
  // The seabed, so that nothing falls for ever.
  auto seabed = std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(kSeabed_m));
  auto body = std::make_unique<btRigidBody>(0, nullptr, seabed.get());
  body->setUserIndex2(kTagDock);
  world_->addRigidBody(body.get());
  dockShapes_.push_back(std::move(seabed));
  dockBodies_.push_back(std::move(body));
}

void Harbour::addDock(const DockPiece& piece) {
  std::unique_ptr<btCollisionShape> shape;
  if (piece.shape == DockPiece::Shape::Box)
    shape = std::make_unique<btBoxShape>(piece.halfExtents_m);
  else
    shape = std::make_unique<btCylinderShape>(piece.halfExtents_m);
  auto body = std::make_unique<btRigidBody>(0, nullptr, shape.get());
  body->setWorldTransform(btTransform(btQuaternion::getIdentity(), piece.centre_m));
  body->setUserIndex2(kTagDock);
  body->setFriction(0.4f);
  body->setRestitution(0.2f);
  world_->addRigidBody(body.get());
  dockShapes_.push_back(std::move(shape));
  dockBodies_.push_back(std::move(body));
}

void Harbour::reset() {
  removeAllBoats();
  time_s_ = 0;
  contacts_ = {};
  touching_.clear();
  random_.seed(options_.seed);
  sea_ = std::make_shared<SwitchableSea>(makeSeaSurface(seaState_, options_.seed, seaModel_));
  wakes_.reset(sea_);
  stepEnd_s_ = 0;
  placeScenario();
}

void Harbour::removeAllBoats() {
  scuttledId_ = -1;
  for (auto& boat : boats_) {
    for (auto& line : boat->moorings) world_->removeConstraint(line.constraint.get());
    damage_->holing.remove(*boat->action);
    world_->removeAction(boat->propulsion.get());
    world_->removeAction(boat->action.get());
    world_->removeRigidBody(boat->body.get());
  }
  boats_.clear();
  damage_->holing.clearHoles();  // they name the boats just removed
  debris_->clear();
}

bool Harbour::freeAt(double x_m, double z_m, double radius_m) const {
  constexpr double kGap_m = 1.5;
  for (const auto& boat : boats_) {
    const btVector3 p = boat->body->getCenterOfMassPosition();
    if (std::hypot(double(p.x()) - x_m, double(p.z()) - z_m) < boat->type->length_m / 2 + radius_m + kGap_m)
      return false;
  }
  for (const DockPiece& d : docks_)
    if (std::abs(double(d.centre_m.x()) - x_m) < double(d.halfExtents_m.x()) + radius_m + kGap_m &&
        std::abs(double(d.centre_m.z()) - z_m) < double(d.halfExtents_m.z()) + radius_m + kGap_m)
      return false;
  return true;
}

Boat& Harbour::spawn(const std::string& kind, double x_m, double z_m, double heading_deg, double speed_mps) {
  const auto found = types_.find(kind);
  if (found == types_.end()) throw std::invalid_argument("unknown boat kind '" + kind + "'");
  const BoatType& type = *found->second;
  auto boat = std::make_unique<Boat>();
  boat->id = nextId_++;
  boat->type = found->second;
  // Start at the design waterline on the local water, level: the file's
  // frame there, the body where the file puts it.
  const btVector3 ground(btScalar(x_m), 0, btScalar(z_m));
  const btScalar level = surfaceHeight(*water(), ground, time_s_);
  const btQuaternion rotation = headingRotation(heading_deg);
  const btTransform fileInWorld(rotation, btVector3(ground.x(), level, ground.z()));
  const btTransform pose = fileInWorld * type.fileToBody.inverse();
  boat->motion = std::make_unique<btDefaultMotionState>(pose);
  btRigidBody::btRigidBodyConstructionInfo info(btScalar(type.mass_kg), boat->motion.get(), type.shape.get(),
                                                type.inertia_kgm2);
  info.m_linearDamping = btScalar(type.spec.linearDamping);
  info.m_angularDamping = btScalar(type.spec.angularDamping);
  info.m_friction = 0.5f;
  info.m_restitution = 0.1f;
  boat->body = std::make_unique<btRigidBody>(info);
  boat->body->setUserIndex(boat->id);
  boat->body->setUserIndex2(kTagBoat);
  boat->body->setActivationState(DISABLE_DEACTIVATION);  // waves move it all the time
  boat->body->setLinearVelocity(quatRotate(rotation, btVector3(btScalar(speed_mps), 0, 0)));
  // Continuous collision: a boat may not pass through a pile in one substep,
  // whatever its speed. The swept sphere fits inside the hull's narrowest part.
  const btScalar thinnest = btScalar(std::min(type.beam_m, type.length_m) / 2);
  boat->body->setCcdMotionThreshold(thinnest * 0.5f);
  boat->body->setCcdSweptSphereRadius(thinnest * 0.4f);
  world_->addRigidBody(boat->body.get());

  keel::HydrostaticSettings settings;
  settings.waterDensity_kgpm3 = btScalar(keel::kSeaWaterDensity_kgpm3);
  settings.sampling = keel::Sampling::Patch;
  settings.patchCellSize_m = btScalar(kWaterCell_m);
  boat->action = std::make_unique<keel::WaterAction>(boat->body.get(), type.hull, water(), settings);
  boat->action->setTime(time_s_);
  // Debug arrows: the boat's weight draws 3 m long, whatever its size.
  boat->action->debugForceScale_Npm = btScalar(type.mass_kg * kGravity_mps2 / 3);
  // Water force from the very first substep (Bullet runs actions after it
  // integrates, so a new action would otherwise miss one).
  boat->action->prime(btScalar(1.0 / options_.physicsRate_Hz));
  // Four watertight sections between bulkheads, each split on the
  // centreline, so a boat holed on one side lists (docs/flooding.md).
  game::addBulkheadsAndCentreline(*boat->action, type.axes.forward, type.axes.forward.cross(type.axes.up),
                                  kCompartments);
  if (effects_) boat->action->setEffects(boatEffectSettings());
  world_->addAction(boat->action.get());
  // The propeller and the rudder, after the boat: it reads the velocity
  // Bullet integrated (docs/propulsion.md).
  boat->propulsion = std::make_unique<keel::Propulsion>(*boat->action, type.propeller, type.rudder, type.layout);
  boat->propulsion->prime(btScalar(1.0 / options_.physicsRate_Hz));
  world_->addAction(boat->propulsion.get());
  wakes_.add(*boat->action);
  damage_->holing.add(*boat->action);
  boats_.push_back(std::move(boat));
  return *boats_.back();
}

Boat& Harbour::spawnAnywhere(const std::string& kind) {
  const BoatType& type = *types_.at(kind);
  std::uniform_real_distribution<double> x(basin_.minX_m + 12, basin_.maxX_m - 12);
  std::uniform_real_distribution<double> z(basin_.minZ_m + 30, basin_.maxZ_m - 10);
  std::uniform_real_distribution<double> heading(0, 360);
  // Try a few places; take the one farthest from every other boat.
  double bestX = 0, bestZ = 10, bestGap = -1;
  for (int attempt = 0; attempt < 40; ++attempt) {
    const double px = x(random_), pz = z(random_);
    double gap = 1e9;
    for (const auto& other : boats_) {
      const btVector3 p = other->body->getCenterOfMassPosition();
      gap = std::min(gap, std::hypot(p.x() - px, p.z() - pz) - other->type->length_m / 2);
    }
    gap -= type.length_m / 2;
    if (gap > bestGap) bestX = px, bestZ = pz, bestGap = gap;
    if (gap > 8) break;
  }
  return spawn(kind, bestX, bestZ, heading(random_));
}

void Harbour::moor(Boat& boat, int side) {
  const BoatType& type = *boat.type;
  const btTransform& pose = boat.body->getCenterOfMassTransform();
  const btScalar deck = btScalar(type.hull->boundsMax().y() * 0.8);
  const btScalar half = btScalar(type.beam_m / 2) * btScalar(side);
  for (btScalar along : {btScalar(type.length_m * 0.35), btScalar(-type.length_m * 0.35)}) {
    Mooring line;
    // Placed along the file's axes, turned into the body's.
    const btMatrix3x3& fileAxesInBody = type.fileToBody.getBasis();
    line.cleat_m = fileAxesInBody * btVector3(along, deck, half);
    // The bollard ashore: out from the cleat towards the dock, on the deck.
    const btVector3 cleatWorld = pose * line.cleat_m;
    const btVector3 outwards = pose.getBasis() * (fileAxesInBody * btVector3(0, 0, btScalar(side)));
    line.bollard_m = cleatWorld + outwards * 1.2f;
    line.bollard_m.setY(btScalar(kPierDeckTop_m + 0.4));
    // The line as a 6-DoF spring: slack sideways and along (within +-0.6 m of
    // where it was made fast), free vertically so the boat rides the waves,
    // free in rotation.
    auto spring = std::make_unique<btGeneric6DofSpring2Constraint>(
        *boat.body, btTransform(btQuaternion::getIdentity(), line.cleat_m));
    spring->setLinearLowerLimit(btVector3(-0.6f, 1, -0.6f));
    spring->setLinearUpperLimit(btVector3(0.6f, -1, 0.6f));  // lower > upper: free
    spring->setAngularLowerLimit(btVector3(1, 1, 1));
    spring->setAngularUpperLimit(btVector3(-1, -1, -1));
    const double omega = 2 * std::numbers::pi / 6.0;  // a 6 s surge period on its lines
    for (int axis : {0, 2}) {
      spring->enableSpring(axis, true);
      spring->setStiffness(axis, btScalar(type.mass_kg * omega * omega / 2));
      spring->setDamping(axis, btScalar(type.mass_kg * omega * 0.3));
      spring->setEquilibriumPoint(axis, 0);
    }
    world_->addConstraint(spring.get(), true);
    line.constraint = std::move(spring);
    boat.moorings.push_back(std::move(line));
  }
}

void Harbour::placeScenario() {
  if (options_.scenario == "collide")
    placeCollideScenario();
  else if (options_.scenario == "wake")
    placeWakeScenario();
  else if (options_.scenario == "drop")
    placeDropScenario();
  else
    placeHarbourScenario();
  debris_->scatter(
      options_.debrisCount, options_.scenario, [this](double x, double z, double r) { return freeAt(x, z, r); },
      options_.seed, basin_, water(), time_s_, 1.0 / options_.physicsRate_Hz);
}

void Harbour::placeHarbourScenario() {
  const std::vector<std::string>& kinds = options_.kinds.empty() ? knownKinds() : options_.kinds;
  // Berths: along the piers and the quay (moored), then open water (free).
  struct Berth {
    double x_m, z_m, heading_deg;
    int side;  ///< 0 free, +1 dock to starboard, -1 dock to port
  };
  for (int i = 0; i < options_.boatCount; ++i) {
    const std::string& kind = kinds[std::size_t(i) % kinds.size()];
    const BoatType& type = *types_.at(kind);
    const double half = type.beam_m / 2 + 0.55;
    std::vector<Berth> berths = {
        {2, -8, 0, 0},                                   // free, mid-basin, bow north
        {-20 + kPileRadius_m + 0.2 + half, -30, 0, -1},  // pier A, east side
        {22 - kPileRadius_m - 0.2 - half, -34, 0, 1},    // pier B, west side
        {5, basin_.minZ_m + half, 90, -1},               // quay, bow east
        {-38, 8, 60, 0},                                 // free, west
        {40, 0, 300, 0},                                 // free, east
        {-45, basin_.minZ_m + half, 270, 1},             // quay west, bow west
        {25 + kPileRadius_m + 0.2 + half, -34, 180, 1},  // pier B, east side
    };
    if (std::size_t(i) < berths.size()) {
      const Berth& b = berths[std::size_t(i)];
      Boat& boat = spawn(kind, b.x_m, b.z_m, b.heading_deg);
      if (b.side != 0) moor(boat, b.side);
    } else {
      spawnAnywhere(kind);
    }
  }
}

void Harbour::placeCollideScenario() {
  // A speedboat at full throttle into the head of pier A, a catamaran into a
  // drifting rowboat, and the heavy boats at their berths.
  Boat& speedboat = spawn("speedboat", -22, 22, 0, 9);
  speedboat.helm.throttle = 1;
  Boat& catamaran = spawn("catamaran", 22, 20, 270, 4);
  catamaran.helm.throttle = 0.6;
  spawn("rowboat", 8, 20, 0);
  moor(spawn("tug", 22 - kPileRadius_m - 0.2 - 2.6 - 0.55, -34, 0), 1);
  moor(spawn("barge", 5, basin_.minZ_m + 3.6 + 0.55, 90), -1);
}

void Harbour::placeWakeScenario() {
  // A speedboat at about 7 knots (Froude number 0.4 on its 7 m) up the basin past
  // pier A: its Kelvin wake, transverse and divergent waves, spreads behind
  // it to the rowboat moored there, which rocks in it, and to the debris.
  Boat& speedboat = spawn("speedboat", -12, 14, 0, 4);
  speedboat.helm.throttle = 0.55;  // 22 rev/s: about 2.9 kN at 7 knots, the speed it starts at
  moor(spawn("rowboat", -20 + kPileRadius_m + 0.2 + types_.at("rowboat")->beam_m / 2 + 0.55, -20, 0), -1);
  moor(spawn("tug", 22 - kPileRadius_m - 0.2 - types_.at("tug")->beam_m / 2 - 0.55, -26, 0), 1);
  spawn("catamaran", 8, 2, 200);
}

void Harbour::step(double frame_s) {
  chooseDetail();
  // The spectral tiles for the time this step covers: the frame, plus the
  // substep Bullet's accumulator may add; then the boats' waves over the
  // substeps it will take.
  const btScalar substep = btScalar(1.0 / options_.physicsRate_Hz);
  sea_->advance(time_s_, time_s_ + frame_s + 1.0 / options_.physicsRate_Hz);
  advanceWakes(world_->substepsOf(btScalar(frame_s), options_.maxSubsteps, substep));
  world_->stepSimulation(btScalar(frame_s), options_.maxSubsteps, substep);
  checkStepEnd();
}

void Harbour::singleStep() {
  chooseDetail();
  const btScalar dt = btScalar(1.0 / options_.physicsRate_Hz);
  sea_->advance(time_s_, time_s_ + double(dt));
  advanceWakes(world_->substepsOf(dt, 1, dt));
  world_->stepSimulation(dt, 1, dt);
  checkStepEnd();
}

void Harbour::setSeaState(int seaState) {
  seaState_ = std::clamp(seaState, 0, kMaxSeaState);
  sea_->change(makeSeaSurface(seaState_, options_.seed, seaModel_), time_s_);
}

void Harbour::preTick(btDynamicsWorld* world, btScalar /*dt_s*/) {
  auto* self = static_cast<Harbour*>(world->getWorldUserInfo());
  for (auto& boat : self->boats_) self->applyHelm(*boat);
}

void Harbour::postTick(btDynamicsWorld* world, btScalar dt_s) {
  auto* self = static_cast<Harbour*>(world->getWorldUserInfo());
  self->time_s_ += double(dt_s);
  self->countContacts();
  self->damage();
  self->debris_->track();
}

void Harbour::chooseDetail() {
  if (nearDetail_.sampling != keel::Sampling::Patch) {  // once: the boats' own full detail
    nearDetail_ = keel::fullDetailSettings();
    nearDetail_.sampling = keel::Sampling::Patch;
    nearDetail_.patchCellSize_m = btScalar(kWaterCell_m);
  }
  for (auto& boat : boats_) {
    keel::WaterAction& action = *boat->action;
    const bool onColumns = action.buoyancyModel() == keel::BuoyancyModel::Columns;
    if (modelChoice_ == ModelChoice::ByDistance)
      game::chooseDetail(action, nearDetail_, viewpoint_m_, btScalar(kNear_m), btScalar(kFar_m));
    else if (modelChoice_ == ModelChoice::AllColumns && !onColumns)
      action.setLevelOfDetail(keel::farBoatSettings(*action.hull(), btScalar(keel::kSeaWaterDensity_kgpm3)));
    else if (modelChoice_ == ModelChoice::AllTriangles && onColumns)
      action.setLevelOfDetail(nearDetail_);
  }
}

std::size_t Harbour::boatsOnColumns() const {
  std::size_t n = 0;
  for (const auto& boat : boats_) n += boat->action->buoyancyModel() == keel::BuoyancyModel::Columns ? 1 : 0;
  return n;
}

void Harbour::damage() {
  if (options_.scenario != "sinking" || boats_.empty()) return;
  Boat& first = *boats_.front();
  if (scuttledId_ < 0 || scuttledId_ == first.id) {
    if (first.holes < kCompartments && time_s_ >= kScuttleTime_s + kScuttleInterval_s * first.holes) {
      scuttledId_ = first.id;
      hole(first, kScuttleHole_m2, true);
    }
  }
}

void Harbour::hole(Boat& boat, double area_m2, bool bothSides) {
  const keel::Hull& hull = *boat.type->hull;
  const btVector3 lo = hull.boundsMin(), hi = hull.boundsMax();
  // Low and to starboard (and port), in the middle of section (holes mod 4) from the stern.
  const double along = (double(boat.holes++ % kCompartments) + 0.5) / kCompartments;
  for (const btScalar side : {hi.z(), lo.z()}) {
    const btVector3 at_body(lo.x() + (hi.x() - lo.x()) * btScalar(along), lo.y() + (hi.y() - lo.y()) * 0.15f,
                            side * 0.3f);
    boat.action->openHole(boat.body->getCenterOfMassTransform() * at_body, btScalar(area_m2));
    if (!bothSides) break;
  }
}

/// The player's helm as the boat's: revolutions and rudder angle, from the
/// pre-tick callback so that each substep takes the latest. Keel's
/// keel::Propulsion (docs/propulsion.md) drives and steers the boat.
void Harbour::applyHelm(Boat& boat) {
  const BoatSpec& spec = boat.type->spec;
  boat.propulsion->setHelm({.revolutions_ps = std::clamp(boat.helm.throttle, -0.5, 1.0) * spec.maxRevolutions_ps,
                            .rudder_rad = std::clamp(boat.helm.rudder, -1.0, 1.0) * spec.maxRudder_rad});
}

void Harbour::countContacts() {
  std::set<std::pair<int, int>> now;
  for (int i = 0; i < dispatcher_->getNumManifolds(); ++i) {
    const btPersistentManifold* m = dispatcher_->getManifoldByIndexInternal(i);
    bool touching = false;
    for (int c = 0; c < m->getNumContacts(); ++c) touching |= m->getContactPoint(c).getDistance() < 0.01f;
    if (!touching) continue;
    const btCollisionObject* a = m->getBody0();
    const btCollisionObject* b = m->getBody1();
    if (a->getUserIndex2() != kTagBoat) std::swap(a, b);
    if (a->getUserIndex2() != kTagBoat) continue;
    if (b->getUserIndex2() == kTagBoat)
      now.insert({std::min(a->getUserIndex(), b->getUserIndex()), std::max(a->getUserIndex(), b->getUserIndex())});
    else if (b->getUserIndex2() == kTagDock && b->getCollisionShape()->getShapeType() != STATIC_PLANE_PROXYTYPE)
      now.insert({a->getUserIndex(), -1});
  }
  contacts_.boatDockNow = contacts_.boatBoatNow = 0;
  for (const auto& pair : now) {
    const bool dock = pair.second < 0;
    (dock ? contacts_.boatDockNow : contacts_.boatBoatNow)++;
    if (!touching_.count(pair)) (dock ? contacts_.boatDockEvents : contacts_.boatBoatEvents)++;
  }
  touching_ = std::move(now);
}

Telemetry Harbour::telemetry(const Boat& boat) const {
  Telemetry t;
  const btTransform& pose = boat.body->getCenterOfMassTransform();
  const btMatrix3x3& basis = pose.getBasis();
  const btVector3 ahead = basis * boat.type->axes.forward;
  // Without the next substep's water impulse, which the body's holds.
  const btVector3 v = boat.action->linearVelocity_mps();
  t.position_m = pose.getOrigin();
  t.speed_kn = std::hypot(double(v.x()), double(v.z())) / kKnot_mps;
  t.heading_deg = std::fmod(std::atan2(double(ahead.x()), double(-ahead.z())) * kDeg + 360.0, 360.0);
  const keel::WaterAction& action = *boat.action;
  // The mesh files' bow +x and deck +y (demo/tools/make_hulls.cpp), mapped
  // into the body's principal axes.
  const keel::Attitude attitude = keel::attitude(action, boat.type->axes);
  t.trim_deg = attitude.trim_rad * kDeg;
  t.heel_deg = attitude.heel_rad * kDeg;
  t.draft_m = std::isfinite(attitude.draft_m) ? std::max(0.0, double(attitude.draft_m)) : 0.0;
  t.submergedVolume_m3 = action.hydrostatics().submergedVolume_m3;
  t.heave_m = t.position_m.y();
  t.buoyancy_N = action.hydrostatics().force_N;
  const keel::HydrodynamicForces& hydro = action.hydrodynamics();
  t.viscous_N = hydro.viscous.force_N;
  t.pressureDrag_N = hydro.pressureDrag.force_N;
  t.slamming_N = hydro.slamming.force_N;
  t.air_N = hydro.air.force_N;
  t.dragClamp = hydro.clampScale;
  t.weight_N = btVector3(0, btScalar(-boat.type->mass_kg * kGravity_mps2), 0);
  const keel::PropulsionReport& drive = boat.propulsion->report();
  t.thrust_N = drive.thrust_N;
  t.rudder_N = drive.rudderLift_N + drive.rudderDrag_N;
  t.propellerWet = drive.propeller.emergence > 0;
  t.keelFlags = action.status().flags;
  return t;
}

bool Harbour::sunk(const Boat& boat) const {
  const btVector3 p = boat.body->getCenterOfMassPosition();
  const double water = surfaceHeight(*this->water(), p, time_s_);
  // Its deck's height above the centre of mass (body frame, y up): a loaded
  // boat floats with its centre of mass well under the water, its deck never.
  const double deckAboveCentre = boat.type->hull->boundsMax().y();
  return p.y() + deckAboveCentre < water - kSunkDepth_m;
}

bool Harbour::outsideBasin(const Boat& boat) const {
  const btVector3 p = boat.body->getCenterOfMassPosition();
  return p.x() < basin_.minX_m || p.x() > basin_.maxX_m || p.z() < basin_.minZ_m || p.z() > basin_.maxZ_m + 8;
}

}  // namespace demo

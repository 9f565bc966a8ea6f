#include "harbour.hpp"

#include "harbour_layout.hpp"

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

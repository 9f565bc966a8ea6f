#pragma once
/// @file harbour.hpp
/// The harbour's Bullet world: static docks, boats floated by keel::WaterAction,
/// moorings, the helm (thrust and rudder) and contact bookkeeping. No
/// rendering here, and no water physics: that is Keel's.

#include "boat_type.hpp"
#include "options.hpp"
#include "sea.hpp"
#include "wakes.hpp"

#include <keel/level_of_detail.hpp>
#include <keel/propulsion.hpp>
#include <keel/water_action.hpp>

#include <BulletDynamics/ConstraintSolver/btTypedConstraint.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btDefaultMotionState.h>

#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

class btBroadphaseInterface;
class btCollisionDispatcher;
class btCollisionShape;
class btDefaultCollisionConfiguration;
class btDiscreteDynamicsWorld;
class btDynamicsWorld;
class btSequentialImpulseConstraintSolver;

namespace game {
class HardContactHoles;
}

namespace demo {

class DebrisField;

/// One static piece of the harbour's structures, world frame.
struct DockPiece {
  enum class Shape { Box, Cylinder };
  Shape shape = Shape::Box;
  btVector3 centre_m{0, 0, 0};
  /// Box: half extents [m]. Cylinder (vertical): (radius, half height, radius) [m].
  btVector3 halfExtents_m{0, 0, 0};
  std::string material;  ///< "stone", "concrete", "wood", "pile", "fender", "bollard"
};

/// The helm of a boat as the player sets it; each substep it becomes the
/// boat's keel::Helm: revolutions and rudder angle.
struct Helm {
  double throttle = 0;  ///< -0.5 (astern) .. 1 (full ahead): of the spec's revolutions
  double rudder = 0;    ///< -1 (hard to port) .. 1 (hard to starboard): of the spec's rudder angle
};

/// A line from a cleat on the boat to a bollard ashore.
struct Mooring {
  btVector3 cleat_m;    ///< on the boat, centre-of-mass frame [m]
  btVector3 bollard_m;  ///< ashore, world [m]
  std::unique_ptr<btTypedConstraint> constraint;
};

/// A boat in the harbour.
struct Boat {
  int id = 0;  ///< unique in this harbour run
  std::shared_ptr<const BoatType> type;
  std::unique_ptr<btDefaultMotionState> motion;
  std::unique_ptr<btRigidBody> body;
  std::unique_ptr<keel::WaterAction> action;     ///< Keel floats it
  std::unique_ptr<keel::Propulsion> propulsion;  ///< its propeller and rudder
  Helm helm;
  std::vector<Mooring> moorings;
  int holes = 0;  ///< holes opened by the H key or the sinking scenario
  [[nodiscard]] bool moored() const { return !moorings.empty(); }
};

/// What the harbour's boats report for the spray and foam the app draws
/// (keel::WaterAction::setEffects): on, with Keel's default thresholds.
[[nodiscard]] keel::EffectSettings boatEffectSettings();

/// Which model floats the boats: by distance from the camera (far boats on
/// Keel's columns), or one model for all of them (the M key), to compare.
enum class ModelChoice { ByDistance, AllTriangles, AllColumns };

/// What the HUD and the recorder show about a boat.
struct Telemetry {
  double speed_kn = 0;                ///< over ground, horizontal
  double heading_deg = 0;             ///< compass: 0 north (-z), 90 east (+x)
  double heel_deg = 0;                ///< roll, positive to starboard
  double trim_deg = 0;                ///< pitch, positive bow up
  double draft_m = 0;                 ///< deepest hull point below the local surface
  double submergedVolume_m3 = 0;      ///< from Keel's last substep
  double heave_m = 0;                 ///< centre-of-mass height above the mean water level
  btVector3 position_m{0, 0, 0};      ///< centre of mass, world
  btVector3 buoyancy_N{0, 0, 0};      ///< Keel's hydrostatic pressure force, world
  btVector3 viscous_N{0, 0, 0};       ///< Keel's skin friction, world
  btVector3 pressureDrag_N{0, 0, 0};  ///< Keel's pressure drag and suction, world
  btVector3 slamming_N{0, 0, 0};      ///< Keel's slamming, world
  btVector3 air_N{0, 0, 0};           ///< Keel's air resistance, world
  double dragClamp = 1;               ///< Keel's clamp on the drag sum (1: none)
  btVector3 weight_N{0, 0, 0};        ///< m g, world
  btVector3 thrust_N{0, 0, 0};        ///< on the hull, keel::Propulsion's last substep
  btVector3 rudder_N{0, 0, 0};        ///< the rudder's lift and drag
  bool propellerWet = false;          ///< the screw had water around it: it could push
  std::uint32_t keelFlags = 0;        ///< keel::StatusFlag bits of the last substep
};

/// Contact bookkeeping: an event is a pair that starts touching.
struct ContactStats {
  long boatDockEvents = 0;
  long boatBoatEvents = 0;
  int boatDockNow = 0;  ///< pairs touching after the last substep
  int boatBoatNow = 0;
};

/// The harbour basin, for "left the harbour" checks: the water inside the
/// breakwaters [m], world x and z.
struct Basin {
  double minX_m = -60, maxX_m = 60, minZ_m = -48, maxZ_m = 42;
};

class Harbour {
 public:
  /// Water sampling cell [m]: the boats' water patch and the rendered water
  /// grid share it, so the rendered surface is the one the boats float on.
  static constexpr double kWaterCell_m = 1.0;

  Harbour(const Options& options, std::map<std::string, std::shared_ptr<const BoatType>> types);
  ~Harbour();
  Harbour(const Harbour&) = delete;
  Harbour& operator=(const Harbour&) = delete;

  /// Removes every boat and places the scenario's boats again; the clock restarts.
  void reset();
  /// Adds a free boat of `kind` at (x, z) [m] heading `heading_deg` (compass)
  /// moving ahead at `speed_mps`. Returns it.
  Boat& spawn(const std::string& kind, double x_m, double z_m, double heading_deg, double speed_mps = 0);
  /// Adds a boat somewhere free in the basin. Returns it.
  Boat& spawnAnywhere(const std::string& kind);

  /// Advances by one frame of `frame_s` [s] (fixed substeps of 1/physicsRate).
  void step(double frame_s);
  /// Advances by exactly one substep.
  void singleStep();

  /// Changes the sea state live (the new sea fades in over a few seconds).
  void setSeaState(int seaState);
  [[nodiscard]] int seaState() const { return seaState_; }
  [[nodiscard]] SeaModel seaModel() const { return seaModel_; }

  [[nodiscard]] double time_s() const { return time_s_; }
  [[nodiscard]] const std::vector<std::unique_ptr<Boat>>& boats() const { return boats_; }
  [[nodiscard]] std::vector<std::unique_ptr<Boat>>& boats() { return boats_; }
  [[nodiscard]] const std::vector<DockPiece>& docks() const { return docks_; }
  [[nodiscard]] const ContactStats& contacts() const { return contacts_; }
  [[nodiscard]] const std::shared_ptr<SwitchableSea>& sea() const { return sea_; }
  /// The water the boats and the debris float on: the wake field over the
  /// sea when wakes are on (and what the renderer draws), the sea when off.
  [[nodiscard]] const std::shared_ptr<const keel::WaterSurface>& water() const { return wakes_.water(); }
  [[nodiscard]] const HarbourWakes& wakes() const { return wakes_; }
  /// Floats every boat and piece of debris on a still wake field over the
  /// sea, every boat making waves in it (on), or on the sea alone (off).
  void setWakes(bool on);
  /// Every boat reports Keel's effect events (docs/effects.md) for the app
  /// to draw as spray and foam (on), or none (off); boats spawned later follow.
  void setEffects(bool on);
  [[nodiscard]] bool effectsOn() const { return effects_; }
  /// The point a wake window smaller than the basin follows [m, world]:
  /// the selected boat.
  void setFocus(const btVector3& point_m) { focus_m_ = point_m; }
  [[nodiscard]] btDiscreteDynamicsWorld& world() { return *world_; }
  [[nodiscard]] const Basin& basin() const { return basin_; }
  [[nodiscard]] const std::map<std::string, std::shared_ptr<const BoatType>>& types() const { return types_; }
  /// The light debris floating in the harbour (--debris).
  [[nodiscard]] const DebrisField& debris() const { return *debris_; }

  /// Holes `boat` below its waterline to starboard (and to port too when
  /// `bothSides`) with holes of `area_m2`, in its sections in turn from the
  /// stern (gameplay: Keel floods what is holed). One side floods and lists.
  void hole(Boat& boat, double area_m2, bool bothSides = false);
  /// Where the camera is [m, world]: boats farther than kFar_m from it go on
  /// Keel's far-boat preset (columns), back to full detail nearer than kNear_m.
  void setViewpoint(const btVector3& camera_m) { viewpoint_m_ = camera_m; }
  void setModelChoice(ModelChoice choice) { modelChoice_ = choice; }
  [[nodiscard]] ModelChoice modelChoice() const { return modelChoice_; }
  /// How many boats float on columns now.
  [[nodiscard]] std::size_t boatsOnColumns() const;
  static constexpr double kNear_m = 45, kFar_m = 60;

  /// The boat the sinking scenario holed, or -1.
  [[nodiscard]] int scuttledId() const { return scuttledId_; }

  [[nodiscard]] Telemetry telemetry(const Boat& boat) const;
  /// True when the boat's deck (the hull's highest point above the centre
  /// of mass) is more than 0.5 m under the local surface: it has gone down.
  [[nodiscard]] bool sunk(const Boat& boat) const;
  /// True when the boat's centre of mass is outside the basin.
  [[nodiscard]] bool outsideBasin(const Boat& boat) const;

 private:
  void buildDocks();
  void addDock(const DockPiece& piece);
  void placeScenario();
  void placeHarbourScenario();
  void placeCollideScenario();
  void placeWakeScenario();
  void placeDropScenario();
  /// Advances the wake field over the `substeps` the next step takes,
  /// before it (docs/wakes.md); after it, checkStepEnd() checks that the
  /// world reached the time the field was advanced to.
  void advanceWakes(int substeps);
  void checkStepEnd() const;
  /// Moors `boat` with bow and stern lines to the dock on its `side`
  /// (+1 starboard, -1 port).
  void moor(Boat& boat, int side);
  void removeAllBoats();
  /// True when a piece of radius `radius_m` at (x, z) [m] would touch no
  /// boat and no dock.
  [[nodiscard]] bool freeAt(double x_m, double z_m, double radius_m) const;
  static void preTick(btDynamicsWorld* world, btScalar dt_s);
  static void postTick(btDynamicsWorld* world, btScalar dt_s);
  void applyHelm(Boat& boat);
  void countContacts();
  /// Each boat's level of detail for the next frame (modelChoice_).
  void chooseDetail();
  /// Holes the sinking scenario's boat when its time comes (collisions hole
  /// boats by themselves: damage_).
  void damage();

  Options options_;
  std::map<std::string, std::shared_ptr<const BoatType>> types_;
  std::shared_ptr<SwitchableSea> sea_;
  int seaState_ = 0;
  SeaModel seaModel_ = SeaModel::Spectral;  ///< from Options::sea
  double time_s_ = 0;
  int nextId_ = 0;
  Basin basin_;
  std::mt19937 random_;
  HarbourWakes wakes_;    ///< after basin_: made from it
  double stepEnd_s_ = 0;  ///< the time the wake field was last advanced to
  btVector3 focus_m_{0, 0, 0};
  bool effects_ = true;  ///< the boats report effect events (Options::effects, the E key)

  std::unique_ptr<btDefaultCollisionConfiguration> collisionConfig_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<HarbourWorld> world_;

  std::vector<DockPiece> docks_;
  std::vector<std::unique_ptr<btCollisionShape>> dockShapes_;
  std::vector<std::unique_ptr<btRigidBody>> dockBodies_;
  std::vector<std::unique_ptr<Boat>> boats_;
  std::unique_ptr<DebrisField> debris_;  ///< after world_: goes before it

  ContactStats contacts_;
  std::set<std::pair<int, int>> touching_;  ///< (boat id, other boat id or -1 for a dock)
  /// Holes boats where they hit something hard, every substep
  /// (docs/flooding.md's example); removed from the world before it.
  std::unique_ptr<game::HardContactHoles> damage_;
  int scuttledId_ = -1;
  btVector3 viewpoint_m_{0, 30, 60};
  ModelChoice modelChoice_ = ModelChoice::ByDistance;
  keel::LevelOfDetail nearDetail_;  ///< the boats' full detail: triangles, the rendered water's patch
};

}  // namespace demo

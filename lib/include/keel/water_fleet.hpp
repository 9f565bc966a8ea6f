#pragma once
/// @file water_fleet.hpp
/// keel::WaterFleet: many boats on one sea, their water forces computed in
/// parallel, bitwise the same for any thread count.

#include <keel/config.hpp>
#include <keel/water_action.hpp>

#include <BulletDynamics/Dynamics/btActionInterface.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace keel::KEEL_ABI {

/// The most worker threads a WaterFleet takes: more than any machine has
/// hardware threads, and oneTBB's arenas are not made for more.
inline constexpr int kMaxFleetThreads = 65536;

/// One Bullet action for many boats on one shared WaterSurface.
///
/// Each substep it computes every boat's water force concurrently (oneTBB:
/// Debian's Bullet is built without BT_THREADSAFE, so btParallelFor runs
/// serially) and applies it to the boat's body. Each boat's computation reads
/// only its own body and buffers, so results are bitwise identical for any
/// thread count. When every boat has a body of its own, each applies its
/// force as soon as it is computed (no other boat reads that body); when
/// some share a body, all are computed first and then applied one by one in
/// the order the boats were added.
///
/// The boats are WaterActions owned by the fleet: use the returned reference
/// for their settings and telemetry, and do not add them to the world
/// yourself. The surface must be safe to query from several threads (every
/// const WaterSurface shipped with Keel is). A boat whose body is not in
/// the world that steps the fleet (removed from it, the boat left in the
/// fleet) is left alone and reports StatusNotInWorld; remove() it.
class WaterFleet : public btActionInterface {
 public:
  /// A fleet on `surface`; `threads` as for setThreadCount. Throws
  /// std::invalid_argument for a null surface or a bad thread count.
  explicit WaterFleet(std::shared_ptr<const WaterSurface> surface, int threads = 0);
  ~WaterFleet() override;
  WaterFleet(const WaterFleet&) = delete;
  WaterFleet& operator=(const WaterFleet&) = delete;

  /// Adds a boat (see WaterAction's constructor for the arguments and their
  /// errors). Its clock starts at the fleet's. Returns it, for its settings.
  /// The fleet keeps its boats in blocks of many, and a boat's model makes
  /// its state at its first substep: a game that makes each body just before
  /// its boat finds its bodies as close together as when it makes them all
  /// first (docs/performance.md, "Many boats").
  WaterAction& add(btRigidBody* body, std::shared_ptr<const Hull> hull, const HydrostaticSettings& settings = {});
  /// Removes the boat of `body`; false when there is none.
  bool remove(const btRigidBody* body);
  [[nodiscard]] std::size_t size() const { return boats_.size(); }
  [[nodiscard]] WaterAction& boat(std::size_t index) { return *boats_[index]; }
  [[nodiscard]] const WaterAction& boat(std::size_t index) const { return *boats_[index]; }
  /// WaterAction::setSurface for every boat, and for boats added later
  /// (the fleet's surface). Between steps; throws std::invalid_argument for
  /// a null surface.
  void setSurface(std::shared_ptr<const WaterSurface> surface);
  [[nodiscard]] const std::shared_ptr<const WaterSurface>& surface() const { return surface_; }

  /// Worker threads for the force computation: 1 runs serially on the
  /// calling thread, 0 uses every hardware thread. Throws
  /// std::invalid_argument for a count below 0 or above kMaxFleetThreads.
  void setThreadCount(int threads);
  [[nodiscard]] int threadCount() const { return threads_; }

  /// Called by Bullet once per substep: advances every boat's clock and makes
  /// its water force act in the next substep (a boat whose body is not in
  /// `world`, when given, is left alone: StatusNotInWorld).
  void updateAction(btCollisionWorld* world, btScalar timeStep_s) override;
  /// WaterAction::prime for every boat.
  void prime(btScalar timeStep_s);
  /// Every boat's WaterAction::debugDraw.
  void debugDraw(btIDebugDraw* drawer) override;

  /// Every boat's WaterAction::saveState and the fleet's clock, for
  /// rollback; changes nothing. Allocates the states' memory.
  [[nodiscard]] WaterFleetState saveState() const;
  /// saveState() into `into`, reusing its memory: no allocation once `into`
  /// holds a state of this fleet (a ring buffer's slots, after their first
  /// use).
  void saveState(WaterFleetState& into) const;
  /// Puts back a state this fleet saved: its clock and every boat's
  /// (WaterAction::restoreState). Throws std::invalid_argument, changing
  /// nothing, when the fleet has another number of boats, or a boat another
  /// body or hull than the state's at the same index (a boat added or
  /// removed since: remove or add it back first).
  void restoreState(const WaterFleetState& state);

  /// The water clock [s] (every boat's).
  [[nodiscard]] double time_s() const { return time_s_; }
  /// Wall time of the last updateAction [s]: the water's share of a substep.
  [[nodiscard]] double lastUpdateWallTime_s() const { return lastUpdate_s_; }
  /// WaterAction::setProfiling for every boat, and for boats added later.
  void setProfiling(bool on);
  /// Every boat's WaterAction::profile, summed: the time of every thread in
  /// each stage (so more than the steps' wall time on several cores).
  [[nodiscard]] SubstepProfile profile() const;
  /// WaterAction::clearProfile for every boat.
  void clearProfile();

 private:
  void step(btScalar timeStep_s, const btCollisionWorld* world);
  void checkBodies();
  struct Threads;  // oneTBB kept out of the public headers
  struct Slots;    // the boats' memory: see add()
  std::shared_ptr<const WaterSurface> surface_;
  std::unique_ptr<Slots> slots_;
  std::vector<WaterAction*> boats_;  // in slots_, in the order added
  std::vector<char> computed_;       // per boat: computeForces said apply
  std::unique_ptr<Threads> pool_;
  int threads_ = 0;
  double time_s_ = 0;
  double lastUpdate_s_ = 0;
  bool bodiesChecked_ = true;  // bodiesShared_ is up to date with the boats
  bool bodiesShared_ = false;  // some boats share a body: apply in order, after all are computed
  bool profiling_ = false;     // new boats are profiled
};

}  // namespace keel::KEEL_ABI

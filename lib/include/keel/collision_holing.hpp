#pragma once
/// @file collision_holing.hpp
/// Holes boats where something hits them hard (docs/flooding.md, "In a
/// game"): a Bullet action that reads every substep's contact impulses, so
/// that no impact is missed whatever the substeps per stepSimulation, and
/// opens one hole per impact with WaterAction::openHole.

#include <keel/config.hpp>
#include <keel/water_action.hpp>

#include <BulletDynamics/Dynamics/btActionInterface.h>
#include <LinearMath/btVector3.h>

#include <cstddef>
#include <vector>

class btCollisionObject;
class btCollisionWorld;
class btIDebugDraw;

namespace keel::KEEL_ABI {

/// When a contact holes a boat, and how.
struct HolingSettings {
  /// An impact holes a boat when its contact impulse changes the boat's
  /// speed by more than this [m/s] (impulse over the boat's mass): the
  /// impulse summed over every contact point between the boat and each body
  /// it touches, and over the substeps of the impact (impactTime_s).
  btScalar speedChange_mps = 2;
  /// The longest an impact lasts [s]: Bullet may spread one impact over a
  /// few substeps (a convex hull gains a contact point per substep). The
  /// impulse is summed over two windows of twice this, half a window apart,
  /// so an impact that lasts no longer is summed whole in one of them. A
  /// steady push of acceleration a reads as a speed change of at most
  /// 2 a impactTime_s.
  btScalar impactTime_s = btScalar(0.05);
  btScalar holeArea_m2 = btScalar(0.01);          ///< the hole an impact makes [m^2], > 0
  btScalar dischargeCoefficient = btScalar(0.6);  ///< the hole's Cd, in (0, 1]
  /// A boat holed once is holed again only after this long [s] without a
  /// substep over the threshold: one hole per impact, however many
  /// substeps its contact lasts.
  btScalar rearm_s = btScalar(0.25);
};

/// One hole made: which boat, where, and the impact that made it.
struct CollisionHole {
  WaterAction* boat = nullptr;
  const btCollisionObject* other = nullptr;  ///< what hit it
  btVector3 point_world{0, 0, 0};            ///< the impulse-weighted contact point on the boat [m, world]
  btScalar speedChange_mps = 0;              ///< the impact's impulse over the boat's mass [m/s]
  std::size_t compartment = 0;               ///< WaterAction::openHole's return
};

/// Holes the boats added to it where contacts hit them hard. Add it to the
/// dynamics world as an action (`world.addAction(&holing)`): Bullet calls
/// actions once per substep, after the constraint solver, so the contacts'
/// applied impulses are that substep's. Each substep it sums, per boat and
/// per body touching it, the normal impulses of all their contact points
/// (a face that hits spreads its impulse over up to four points) as a
/// vector; the magnitudes of these sums add up over the impact
/// (HolingSettings::impactTime_s), as do the contact points on the boat,
/// weighted by their impulses. Where that impulse over the boat's mass
/// exceeds HolingSettings::speedChange_mps, the boat gets a hole at the
/// weighted mean point, at most one per impact (HolingSettings::rearm_s). A
/// boat-to-boat impact is judged for each boat by its own mass. Nothing is
/// allocated per substep once the contacts have been seen.
class CollisionHoling : public btActionInterface {
 public:
  /// Throws std::invalid_argument for a speed change, impact time or area
  /// that is not finite and positive, a coefficient outside (0, 1], or a
  /// negative or non-finite rearm time.
  explicit CollisionHoling(const HolingSettings& settings = {});

  /// Watches `boat` (its body, WaterAction::body()). The boat must outlive
  /// its membership: remove() it first. Adding it twice does nothing.
  void add(WaterAction& boat);
  /// Stops watching `boat`; nothing if it was not watched.
  void remove(const WaterAction& boat);
  /// The boats watched.
  [[nodiscard]] std::size_t size() const { return boats_.size(); }

  /// The holes made since clearHoles() (or since construction).
  [[nodiscard]] const std::vector<CollisionHole>& holes() const { return holes_; }
  void clearHoles() { holes_.clear(); }

  /// Checks the world's contacts of the substep just solved: called by
  /// Bullet once per substep. A user who would rather not add an action can
  /// call it from a post-tick callback (btDynamicsWorld::setInternalTickCallback)
  /// instead, which Bullet also calls once per substep after the solver.
  void updateAction(btCollisionWorld* world, btScalar dt_s) override;
  void debugDraw(btIDebugDraw*) override {}

 private:
  // The impulses of a boat's contacts summed over a window of substeps.
  struct Window {
    btScalar age_s = 0;
    btScalar impulse_Ns = 0;           // sum of the per-body impulses' magnitudes [N s]
    btVector3 weightedPoint{0, 0, 0};  // sum of each point's |impulse| times the point [N s m]
    btScalar weight_Ns = 0;            // sum of each point's |impulse| [N s]
  };
  struct Watched {
    WaterAction* boat;
    btScalar quiet_s;  // time since the last substep over the threshold, at most rearm_s [s]
    bool touched;      // touched in this substep
    Window windows[2];
  };
  struct Impact {
    std::size_t boat;  // index in boats_
    const btCollisionObject* other;
    btVector3 impulse_Ns;     // sum of normal impulses, world axes [N s]
    btVector3 weightedPoint;  // sum of |impulse| times the point on the boat [N s m]
    btScalar weight_Ns;       // sum of |impulse| [N s]
  };
  void accumulate(std::size_t boat, const btCollisionObject* other, const btVector3& impulse_Ns,
                  const btVector3& point_world);
  [[nodiscard]] std::size_t slot(const btCollisionObject* body) const;  // where body is or would go in boats_
  [[nodiscard]] std::size_t find(const btCollisionObject* body) const;  // its index, or boats_.size()
  void hole(std::size_t boat, const Window& window, btScalar speedChange_mps);

  HolingSettings settings_;
  std::vector<Watched> boats_;
  std::vector<Impact> impacts_;  // this substep's, reused
  std::vector<CollisionHole> holes_;
};

}  // namespace keel::KEEL_ABI

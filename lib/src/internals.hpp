#pragma once
// Internal to Keel: the library's way to what its public classes keep
// private. Each such class names keel::Internals as its one friend and
// keeps its working parts behind an opaque type (Hull::Kernels,
// WaterAction::State, ...), so that its header shows the user's API and no
// plumbing (docs/integration.md, "The public API"). The opaque types are
// defined next to the library's types they extend (kernels/hull_soa.hpp,
// columns/column_soa.hpp, water/spectral_detail.hpp, wake/wake_data.hpp,
// substep/substep.hpp, action/rollback.cpp, wake/wake_rollback.cpp).
//
// This header includes only the light public headers it must: the rest is
// declared, and each accessor of a class not included here is defined where
// the code that uses it is. A translation unit that reaches a hull's kernel
// form (hull/hull_access.hpp) thus declares no more surface types than it
// did: the compiler's speculative devirtualisation of the surface's virtual
// calls on the substep's paths depends on the overriders it sees.

#include <keel/columns.hpp>
#include <keel/hull.hpp>
#include <keel/rollback.hpp>

#include <memory>
#include <vector>

class btCollisionWorld;
class btRigidBody;

namespace keel::KEEL_ABI {

class SpectralOcean;
class WakeFieldState;
class WaterAction;
class WaterSurface;
struct HydrostaticSettings;

namespace detail {
struct BoatModel;
}  // namespace detail

class Internals {
 public:
  using HullKernels = Hull::Kernels;
  using ColumnKernels = ColumnHull::Kernels;
  using SavedBoat = WaterActionState::Saved;

  [[nodiscard]] static const HullKernels& kernels(const Hull& hull) { return *hull.soa_; }
  [[nodiscard]] static const ColumnKernels& kernels(const ColumnHull& columns) { return *columns.soa_; }

  /// The ocean's SpectralOcean::State, null when it was moved from
  /// (water/spectral_detail.hpp).
  [[nodiscard]] static auto* state(const SpectralOcean& ocean);

  /// The boat's WaterAction::State (substep/substep.hpp).
  [[nodiscard]] static auto& state(WaterAction& boat);
  /// What the substep reads of `boat` (inline: substep/substep.hpp).
  [[nodiscard]] static inline detail::BoatModel model(const WaterAction& boat);
  /// Ends the life of `boat`'s State, and frees it unless it lies in the
  /// storage the boat was made with (action/water_action.cpp).
  static void releaseState(WaterAction& boat) noexcept;
  /// Makes a boat in `slot` with its State in `stateStorage`: a WaterFleet's
  /// (action/water_action.cpp).
  [[nodiscard]] static WaterAction* makeBoat(void* slot, void* stateStorage, btRigidBody* body,
                                             std::shared_ptr<const Hull> hull,
                                             std::shared_ptr<const WaterSurface> surface,
                                             const HydrostaticSettings& settings);
  /// A WaterFleet's substep of one boat, in the three parts
  /// WaterAction::updateAction runs in one: inline, defined in their one
  /// user (action/water_fleet.cpp).
  [[nodiscard]] static inline bool leftWorld(WaterAction& boat, const btCollisionWorld* world);
  [[nodiscard]] static inline bool computeForces(WaterAction& boat, btScalar timeStep_s);
  static inline void applyForces(WaterAction& boat);
  /// Why `boat` refuses `state`, or null (action/rollback.cpp).
  [[nodiscard]] static const char* refusal(const WaterAction& boat, const WaterActionState& state);

  [[nodiscard]] static std::unique_ptr<SavedBoat>& saved(WaterActionState& state) { return state.saved_; }
  [[nodiscard]] static const SavedBoat* saved(const WaterActionState& state) { return state.saved_.get(); }
  [[nodiscard]] static double& time_s(WaterFleetState& state) { return state.time_s_; }
  [[nodiscard]] static std::vector<WaterActionState>& boats(WaterFleetState& state) { return state.boats_; }
  /// A WakeFieldState's saved part, made when it has none; and null when
  /// it has none (wake/wake_rollback.cpp).
  [[nodiscard]] static auto& saveInto(WakeFieldState& state);
  [[nodiscard]] static auto* saved(const WakeFieldState& state);
};

}  // namespace keel::KEEL_ABI

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
// Everything here is a name or a forwarding call, inlined: no cost on the
// paths that run every substep.

#include <keel/columns.hpp>
#include <keel/hull.hpp>
#include <keel/rollback.hpp>
#include <keel/spectral_ocean.hpp>
#include <keel/wake_field.hpp>
#include <keel/water_action.hpp>

#include <memory>
#include <new>
#include <utility>
#include <vector>

class btCollisionWorld;
class btRigidBody;

namespace keel::KEEL_ABI {

namespace detail {
struct BoatModel;
}  // namespace detail

class Internals {
 public:
  // The opaque types, for the code that defines or sizes them.
  using HullKernels = Hull::Kernels;
  using ColumnKernels = ColumnHull::Kernels;
  using OceanState = SpectralOcean::State;
  using ActionState = WaterAction::State;
  using SavedBoat = WaterActionState::Saved;
  using SavedField = WakeFieldState::Saved;

  [[nodiscard]] static const HullKernels& kernels(const Hull& hull) { return *hull.soa_; }
  [[nodiscard]] static const ColumnKernels& kernels(const ColumnHull& columns) { return *columns.soa_; }
  /// Null when the ocean was moved from.
  [[nodiscard]] static OceanState* state(const SpectralOcean& ocean) { return ocean.state_.get(); }

  [[nodiscard]] static ActionState& state(WaterAction& boat) { return *boat.state_; }
  [[nodiscard]] static const ActionState& state(const WaterAction& boat) { return *boat.state_; }
  /// What the substep reads of `boat` (action/water_action.cpp).
  [[nodiscard]] static detail::BoatModel model(const WaterAction& boat);
  /// Ends the life of `boat`'s State, and frees it unless it lies in the
  /// storage the boat was made with (action/water_action.cpp).
  static void releaseState(WaterAction& boat) noexcept;
  /// Makes a boat in `slot` with its State in `stateStorage` (a WaterFleet's).
  [[nodiscard]] static WaterAction* makeBoat(void* slot, void* stateStorage, btRigidBody* body,
                                             std::shared_ptr<const Hull> hull,
                                             std::shared_ptr<const WaterSurface> surface,
                                             const HydrostaticSettings& settings) {
    return ::new (slot) WaterAction(body, std::move(hull), std::move(surface), settings, stateStorage);
  }
  /// A WaterFleet's substep of one boat, in the three parts
  /// WaterAction::updateAction runs in one (WaterAction's private members).
  [[nodiscard]] static bool leftWorld(WaterAction& boat, const btCollisionWorld* world) {
    return boat.leftWorld(world);
  }
  [[nodiscard]] static bool computeForces(WaterAction& boat, btScalar timeStep_s) {
    return boat.computeForces(timeStep_s);
  }
  static void applyForces(WaterAction& boat) { boat.applyForces(); }
  /// Why `boat` refuses `state`, or null (WaterAction::restoreState).
  [[nodiscard]] static const char* refusal(const WaterAction& boat, const WaterActionState& state) {
    return boat.refusal(state);
  }

  [[nodiscard]] static std::unique_ptr<SavedBoat>& saved(WaterActionState& state) { return state.saved_; }
  [[nodiscard]] static const SavedBoat* saved(const WaterActionState& state) { return state.saved_.get(); }
  [[nodiscard]] static std::unique_ptr<SavedField>& saved(WakeFieldState& state) { return state.saved_; }
  [[nodiscard]] static const SavedField* saved(const WakeFieldState& state) { return state.saved_.get(); }
  [[nodiscard]] static double& time_s(WaterFleetState& state) { return state.time_s_; }
  [[nodiscard]] static std::vector<WaterActionState>& boats(WaterFleetState& state) { return state.boats_; }
};

}  // namespace keel::KEEL_ABI

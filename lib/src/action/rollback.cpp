// Rollback: WaterActionState and WaterFleetState, a boat's and a fleet's
// saved state (docs/determinism.md, "Rollback"). A boat's state is its
// BoatState (substep.hpp: every value it carries from one substep to the
// next, and each buoyancy model's own state) with the WaterAction's own
// clock, settings and level of detail.
#include <keel/rollback.hpp>
#include <keel/water_action.hpp>
#include <keel/water_fleet.hpp>

#include "action/raised_mass.hpp"
#include "internals.hpp"
#include "substep/model.hpp"
#include "wake/wake_link.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace keel::KEEL_ABI {

struct WaterActionState::Saved {
  // What the WaterAction keeps beside its BoatState.
  struct Own {
    std::shared_ptr<const Hull> hull;  // the boat's: held, so that no other hull takes its address
    const btRigidBody* body = nullptr;
    HydrostaticSettings statics;
    HydrodynamicSettings dynamics;
    double time_s = 0;
    BuoyancyModel model = BuoyancyModel::Triangles;
    std::shared_ptr<const ColumnHull> columns;
  } own;
  detail::BoatState boat;  // not copyable: BoatState::copyFrom
  /// The sources its last substep left for its WakeField (WakeField::add):
  /// the field's next update reads them.
  detail::WakeSources wakeSources;
};

WaterActionState::WaterActionState() = default;
WaterActionState::~WaterActionState() = default;
WaterActionState::WaterActionState(WaterActionState&& other) noexcept = default;
WaterActionState& WaterActionState::operator=(WaterActionState&& other) noexcept = default;

WaterActionState::WaterActionState(const WaterActionState& other) { *this = other; }

WaterActionState& WaterActionState::operator=(const WaterActionState& other) {
  if (this == &other) return *this;
  if (!other.saved_) {
    saved_.reset();
    return *this;
  }
  if (!saved_) saved_ = std::make_unique<Saved>();
  saved_->own = other.saved_->own;
  saved_->boat.copyFrom(other.saved_->boat);
  saved_->wakeSources = other.saved_->wakeSources;
  return *this;
}

double WaterActionState::time_s() const { return saved_ ? saved_->own.time_s : 0.0; }

WaterActionState WaterAction::saveState() const {
  WaterActionState state;
  saveState(state);
  return state;
}

void WaterAction::saveState(WaterActionState& into) const {
  std::unique_ptr<Internals::SavedBoat>& saved = Internals::saved(into);
  if (!saved) saved = std::make_unique<Internals::SavedBoat>();
  Internals::SavedBoat& s = *saved;
  s.own = {hull_, body_, settings_, hydro_, time_s_, model_, columns_};
  s.boat.copyFrom(*state_);
  if (state_->wakeLink)
    s.wakeSources = state_->wakeLink->sources;
  else
    s.wakeSources.count = 0;
}

const char* WaterAction::refusal(const WaterActionState& state) const {
  const Internals::SavedBoat* saved = Internals::saved(state);
  if (!saved) return "the state is empty (default-constructed or moved from)";
  if (saved->own.body != body_) return "the state was saved by the boat of another rigid body";
  if (saved->own.hull != hull_) return "the state was saved by a boat of another hull (another keel::Hull object)";
  return nullptr;
}

const char* Internals::refusal(const WaterAction& boat, const WaterActionState& state) { return boat.refusal(state); }

void WaterAction::restoreState(const WaterActionState& state) {
  if (const char* why = refusal(state))
    throw std::invalid_argument(std::string("keel::WaterAction::restoreState: ") + why);
  const Internals::SavedBoat& saved = *Internals::saved(state);
  const Internals::SavedBoat::Own& s = saved.own;
  settings_ = s.statics;
  hydro_ = s.dynamics;
  time_s_ = s.time_s;
  model_ = s.model;
  columns_ = s.columns;
  // The body's mass as it was saved (between steps): raised, or its own.
  detail::restoreRaisedMass(*body_, state_->raised, saved.boat.raised);
  state_->copyFrom(saved.boat);
  // The events of the substeps undone are of a future that no longer
  // happens: dropped; the earlier ones stay for the game (docs/effects.md).
  if (state_->effects)
    std::erase_if(state_->effects->events, [&](const EffectEvent& e) { return e.time_s > s.time_s; });
  if (state_->wakeLink) state_->wakeLink->sources = saved.wakeSources;
  drawnCutBuilt_ = false;  // the drawn cut is the last substep's: rebuilt from the restored one
}

WaterFleetState WaterFleet::saveState() const {
  WaterFleetState state;
  saveState(state);
  return state;
}

void WaterFleet::saveState(WaterFleetState& into) const {
  Internals::time_s(into) = time_s_;
  std::vector<WaterActionState>& boats = Internals::boats(into);
  boats.resize(boats_.size());
  for (std::size_t i = 0; i < boats_.size(); ++i) boats_[i]->saveState(boats[i]);
}

void WaterFleet::restoreState(const WaterFleetState& state) {
  if (state.boats().size() != boats_.size())
    throw std::invalid_argument("keel::WaterFleet::restoreState: the state holds " +
                                std::to_string(state.boats().size()) + " boats, the fleet " +
                                std::to_string(boats_.size()));
  // Every boat checked before any changes: a refused state changes nothing.
  for (std::size_t i = 0; i < boats_.size(); ++i)
    if (const char* why = Internals::refusal(*boats_[i], state.boats()[i]))
      throw std::invalid_argument("keel::WaterFleet::restoreState: boat " + std::to_string(i) + ": " + why);
  time_s_ = state.time_s();
  for (std::size_t i = 0; i < boats_.size(); ++i) boats_[i]->restoreState(state.boats()[i]);
}

}  // namespace keel::KEEL_ABI

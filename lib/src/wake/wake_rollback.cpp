// keel::WakeFieldState: what a WakeField carries from one update to the
// next, saved for rollback (docs/determinism.md, "Rollback").
#include <keel/wake_field.hpp>

#include "internals.hpp"
#include "wake/wake_data.hpp"

#include <stdexcept>

namespace keel::KEEL_ABI {

struct WakeFieldState::Saved {
  const detail::WakeFieldData* field = nullptr;  // identity of the field that saved it
  std::vector<detail::FftComplex> eta, phi;
  double time_s = 0;
  bool started = false;
  double westEdge_m = 0, southEdge_m = 0, wantedWest_m = 0, wantedSouth_m = 0;
  std::array<detail::WakeTiles, 2> tiles;
  int published = 0;
  double absorbed_J = 0, sourceWork_J = 0;
};

auto& Internals::saveInto(WakeFieldState& state) {
  if (!state.saved_) state.saved_ = std::make_unique<WakeFieldState::Saved>();
  return *state.saved_;
}

auto* Internals::saved(const WakeFieldState& state) { return state.saved_.get(); }

namespace {

/// The saved part of a field, copied from `from` into `to` (either way).
template <class From, class To>
void copyState(const From& from, To& to) {
  to.eta = from.eta;
  to.phi = from.phi;
  to.time_s = from.time_s;
  to.started = from.started;
  to.westEdge_m = from.westEdge_m;
  to.southEdge_m = from.southEdge_m;
  to.wantedWest_m = from.wantedWest_m;
  to.wantedSouth_m = from.wantedSouth_m;
  to.tiles = from.tiles;
  to.published = from.published;
  to.absorbed_J = from.absorbed_J;
  to.sourceWork_J = from.sourceWork_J;
}

}  // namespace

WakeFieldState::WakeFieldState() = default;
WakeFieldState::~WakeFieldState() = default;
WakeFieldState::WakeFieldState(WakeFieldState&& other) noexcept = default;
WakeFieldState& WakeFieldState::operator=(WakeFieldState&& other) noexcept = default;
WakeFieldState::WakeFieldState(const WakeFieldState& other) { *this = other; }

WakeFieldState& WakeFieldState::operator=(const WakeFieldState& other) {
  if (this == &other) return *this;
  if (!other.saved_) {
    saved_.reset();
    return *this;
  }
  if (!saved_) saved_ = std::make_unique<Saved>();
  saved_->field = other.saved_->field;
  copyState(*other.saved_, *saved_);
  return *this;
}

double WakeFieldState::time_s() const { return saved_ ? saved_->time_s : 0.0; }

WakeFieldState WakeField::saveState() const {
  WakeFieldState state;
  saveState(state);
  return state;
}

void WakeField::saveState(WakeFieldState& into) const {
  auto& saved = Internals::saveInto(into);
  saved.field = data_.get();
  copyState(*data_, saved);
}

void WakeField::restoreState(const WakeFieldState& state) {
  const auto* saved = Internals::saved(state);
  if (!saved) throw std::invalid_argument("keel::WakeField::restoreState: the state is empty");
  if (saved->field != data_.get())
    throw std::invalid_argument("keel::WakeField::restoreState: the state was saved by another WakeField");
  copyState(*saved, *data_);
}

}  // namespace keel::KEEL_ABI

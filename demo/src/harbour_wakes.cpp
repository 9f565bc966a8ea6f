// The harbour's wake field (wakes.hpp): switched on and off, and advanced
// before each step of the world over the time that step will cover.
#include "debris.hpp"
#include "harbour.hpp"

#include <sstream>
#include <stdexcept>

namespace demo {

void Harbour::setWakes(bool on) {
  wakes_.setOn(on);
  // Every boat and piece floats on the new water from its next substep;
  // the boats make waves in the new field.
  for (auto& boat : boats_) {
    boat->action->setSurface(water());
    wakes_.add(*boat->action);
  }
  for (const auto& piece : debris_->pieces()) piece->action->setSurface(water());
  stepEnd_s_ = time_s_;
}

void Harbour::advanceWakes(int substeps) {
  // The time the world's postTick will have summed after the step's substeps.
  stepEnd_s_ = time_s_;
  const btScalar substep = btScalar(1.0 / options_.physicsRate_Hz);
  for (int i = 0; i < substeps; ++i) stepEnd_s_ += double(substep);
  wakes_.update(time_s_, stepEnd_s_, double(focus_m_.x()), double(focus_m_.z()));
}

void Harbour::checkStepEnd() const {
  if (time_s_ == stepEnd_s_ || !wakes_.on()) return;
  std::ostringstream s;
  s << "the wake field was advanced to " << stepEnd_s_ << " s but the world stepped to " << time_s_ << " s";
  throw std::logic_error(s.str());
}

}  // namespace demo

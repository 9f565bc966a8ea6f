// Effect events at the action (docs/effects.md): their settings and the
// buffer the Effects stage (lib/src/substep/effects.cpp) writes into.
#include <keel/effects.hpp>
#include <keel/water_action.hpp>

#include "substep/substep.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace {

void requireSpeed(const char* field, btScalar value, bool positive) {
  if (!std::isfinite(value) || value < 0 || (positive && value == 0))
    throw std::invalid_argument(std::string("keel::EffectSettings: ") + field + " must be " +
                                (positive ? "positive" : "non-negative") + " and finite, got " + std::to_string(value));
}

}  // namespace

void EffectSettings::validate() const {
  if (enabled && capacity == 0)
    throw std::invalid_argument("keel::EffectSettings: capacity must be positive when enabled");
  requireSpeed("sprayMinSpeed_mps", sprayMinSpeed_mps, true);
  requireSpeed("bowWaveMinSpeed_mps", bowWaveMinSpeed_mps, true);
  requireSpeed("splashMinSpeed_mps", splashMinSpeed_mps, false);
  requireSpeed("floodingMinRate_m3ps", floodingMinRate_m3ps, false);
  if (maxSprayPerSubstep > kEffectSectors || maxBowWavePerSubstep > kEffectSectors)
    throw std::invalid_argument("keel::EffectSettings: maxSprayPerSubstep and maxBowWavePerSubstep must be at most " +
                                std::to_string(kEffectSectors) + ", got " + std::to_string(maxSprayPerSubstep) +
                                " and " + std::to_string(maxBowWavePerSubstep));
}

void WaterAction::setEffects(const EffectSettings& settings) {
  settings.validate();
  std::unique_ptr<detail::EffectBuffer>& buffer = state_->effects;
  if (!settings.enabled) {
    buffer.reset();
    state_->effectHistory = detail::EffectHistory{};  // nothing stale is saved while off
    return;
  }
  if (!buffer) {
    buffer = std::make_unique<detail::EffectBuffer>();
    state_->effectHistory = detail::EffectHistory{};  // not warm: the first substep notes the wetness
  }
  buffer->settings = settings;
  if (buffer->events.size() > settings.capacity) buffer->events.resize(settings.capacity);
  buffer->events.reserve(settings.capacity);
}

EffectSettings WaterAction::effectSettings() const {
  return state_->effects ? state_->effects->settings : EffectSettings{};
}

std::span<const EffectEvent> WaterAction::effects() const {
  if (!state_->effects) return {};
  return state_->effects->events;
}

std::uint64_t WaterAction::droppedEffects() const { return state_->effects ? state_->effects->dropped : 0; }

void WaterAction::clearEffects() {
  if (!state_->effects) return;
  state_->effects->events.clear();
  state_->effects->dropped = 0;
}

}  // namespace keel::KEEL_ABI

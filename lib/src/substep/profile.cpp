// The stages' names, for a profile's table.
#include <keel/substep_profile.hpp>

namespace keel::KEEL_ABI {

const char* stageName(SubstepStage stage) {
  static constexpr const char* kNames[kSubstepStageCount] = {
      "Plan", "Pose",     "SampleWater",    "Heights",   "Classify",    "WaterVelocity", "WavePressure",
      "Cut",  "Pressure", "ColumnBuoyancy", "AddedMass", "WakeSources", "Flow",          "Slamming",
      "Air",  "Damping",  "Clamp",          "Flooding",  "Effects",     "VelocityChange"};
  const auto i = std::size_t(stage);
  return i < kSubstepStageCount ? kNames[i] : "unknown";
}

}  // namespace keel::KEEL_ABI

// keel::WaterStatus in words.
#include <keel/water_action.hpp>

#include <sstream>

namespace keel::KEEL_ABI {

std::string WaterStatus::describe() const {
  struct Name {
    std::uint32_t bit;
    const char* text;
  };
  static const Name names[] = {
      {StatusNonFiniteHeight, "non-finite water height (replaced)"},
      {StatusNoFiniteHeight, "no finite water height: no water force"},
      {StatusBadTimeStep, "time step <= 0 or not finite: substep skipped"},
      {StatusStaticBody, "static, kinematic or zero-mass body: nothing to float"},
      {StatusNoGravity, "gravity zero or not finite: no buoyancy"},
      {StatusNonFiniteBody, "body transform not finite: substep skipped"},
      {StatusNonFiniteForce, "non-finite force or velocity change: not applied"},
      {StatusDry, "hull wholly above the water"},
      {StatusSubmerged, "hull wholly under the water"},
      {StatusSurfaceThrew, "the water surface threw: no water force"},
      {StatusDampingUncompensated, "body damping ~1: water force not damping-compensated"},
      {StatusNonFiniteVelocity, "non-finite water velocity (replaced by zero)"},
      {StatusDragClamped, "drag clamped so it cannot reverse the motion"},
      {StatusImplausibleHeight, "water height far outside any sea around the hull (replaced)"},
      {StatusPressureLimited, "pressure force beyond what any sea gives this hull: limited"},
      {StatusDragEnergyLimited, "drag limited so it cannot add kinetic energy"},
      {StatusOutOfRange, "too far from the origin for the water patch: no water force"},
      {StatusImplausibleDepth,
       "hull more than 100 m under every water height, deeper than boats go: are the heights in metres (not "
       "millimetres)?"},
      {StatusNotInWorld, "body not in the world that steps it: left alone"},
      {StatusOutsideWakeField, "outside its wake field's window: makes and feels no boat's waves"},
  };
  std::ostringstream s;
  for (const Name& n : names)
    if (flags & n.bit) s << (s.tellp() > 0 ? "; " : "") << n.text;
  if (nonFiniteHeights > 0) s << (s.tellp() > 0 ? "; " : "") << nonFiniteHeights << " non-finite heights so far";
  if (nonFiniteVelocities > 0)
    s << (s.tellp() > 0 ? "; " : "") << nonFiniteVelocities << " non-finite water velocities so far";
  if (implausibleHeights > 0) s << (s.tellp() > 0 ? "; " : "") << implausibleHeights << " implausible heights so far";
  return s.tellp() > 0 ? s.str() : std::string("ok");
}

}  // namespace keel::KEEL_ABI

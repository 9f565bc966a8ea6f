// The harbour app's view of the wake field (wakes.hpp): its HUD lines and the
// wake drawn round the selected boat, which the wake scenario's check reads.
#include "app.hpp"

#include <imgui.h>

#include <algorithm>

namespace demo {

void HarbourApp::hudWakes() {
  const WakeStats w = harbour_.wakes().stats();
  if (!w.on) {
    ImGui::Text("wakes [K]: off (boats float on the sea alone)");
    return;
  }
  // Boats on the column model feel the field but make no waves (docs/wakes.md, "Limits").
  const std::size_t onColumns = harbour_.boatsOnColumns();
  ImGui::Text("wakes [K]: on, %zu boats making waves, %zu on columns making none",
              w.boats - std::min(w.boats, onColumns), onColumns);
  ImGui::Text("  %d x %d nodes of %.2f m, %.0f m (%s)", w.nodes, w.nodes, w.cell_m, w.size_m,
              w.following ? "following the boat" : "the basin");
  ImGui::Text("  wave energy %.0f J, update %.2f ms (in physics)", w.energy_J, w.updateMs);
}

void HarbourApp::measureWake() {
  const Boat* boat = selected();
  if (!boat || !harbour_.wakes().on()) return;
  const btVector3 p = boat->body->getCenterOfMassPosition();
  result_.wakeDrawn_m = water_->maxDifference_m(*harbour_.wakes().sea(), harbour_.time_s(), p.x(), p.z(),
                                                RunResult::kWakeRadius_m);
}

}  // namespace demo

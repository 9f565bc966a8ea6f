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

void HarbourApp::trackMooredRocking() {
  if (harbour_.time_s() < RunResult::kRockFrom_s) return;
  for (const auto& boat : harbour_.boats()) {
    if (!boat->moored()) continue;
    const Telemetry t = harbour_.telemetry(*boat);
    const auto [it, first] = rocking_.try_emplace(boat->id, std::array{t.heel_deg, t.heel_deg, t.trim_deg, t.trim_deg});
    std::array<double, 4>& r = it->second;
    r = {std::min(r[0], t.heel_deg), std::max(r[1], t.heel_deg), std::min(r[2], t.trim_deg),
         std::max(r[3], t.trim_deg)};
    result_.mooredRock_deg = std::max({result_.mooredRock_deg, r[1] - r[0], r[3] - r[2]});
  }
}

}  // namespace demo

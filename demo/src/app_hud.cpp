// The harbour app's HUD (Dear ImGui through Ogre's ImGuiOverlay): the sea and
// the run, the selected boat's telemetry, forces and compartments, the keys.
#include "app.hpp"

#include <keel/constants.hpp>

#include <OgreRenderWindow.h>

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace demo {

void HarbourApp::drawHud() {
  if (!options_.hud) return;
  hudSea();
  hudBoat();
  hudHelp();
}

void HarbourApp::hudSea() {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("Keel harbour", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
  ImGui::Text("%.0f fps   physics %.2f ms/frame at %.0f Hz", fps_, physicsMs_, options_.physicsRate_Hz);
  ImGui::Text("t = %.1f s%s", harbour_.time_s(), paused_ ? "   PAUSED" : "");
  int sea = harbour_.seaState();
  if (ImGui::SliderInt("sea state", &sea, 0, kMaxSeaState)) harbour_.setSeaState(sea);
  ImGui::Text("Hs %.2f m (%s, JONSWAP)", significantWaveHeight_m(harbour_.seaState()),
              harbour_.seaModel() == SeaModel::Spectral ? "spectral ocean" : "Gerstner, 8 waves");
  const ContactStats& c = harbour_.contacts();
  std::size_t moored = 0;
  for (const auto& boat : harbour_.boats()) moored += boat->moored() ? 1 : 0;
  ImGui::Text("boats %zu (%zu moored), debris %zu", harbour_.boats().size(), moored, harbour_.debris().pieces().size());
  static const char* const choices[] = {"far boats on columns", "all on triangles", "all on columns"};
  ImGui::Text("model [M]: %s: %zu triangles, %zu columns", choices[int(harbour_.modelChoice())],
              harbour_.boats().size() - harbour_.boatsOnColumns(), harbour_.boatsOnColumns());
  ImGui::Text("contacts  boat-dock %ld (%d now)  boat-boat %ld (%d now)", c.boatDockEvents, c.boatDockNow,
              c.boatBoatEvents, c.boatBoatNow);
  hudWakes();
  hudEffects();
  if (ImGui::Button(paused_ ? "Resume [P]" : "Pause [P]")) paused_ = !paused_;
  ImGui::SameLine();
  if (ImGui::Button("Step [N]")) paused_ = true, stepOnce_ = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset [R]")) reset();
  ImGui::SameLine();
  if (ImGui::Button("Spawn [B]")) spawn();
  const char* modes[] = {"off", "Keel: submerged, waterline, forces", "Keel + collision shapes"};
  ImGui::Combo("debug [F1]", &debugMode_, modes, 3);
  ImGui::End();
}

void HarbourApp::hudBoat() {
  Boat* boat = selected();
  if (!boat) return;
  const Telemetry t = harbour_.telemetry(*boat);
  // Bottom right: over the near water, not over the harbour.
  const float width = float(getRenderWindow()->getWidth()), height = float(getRenderWindow()->getHeight());
  ImGui::SetNextWindowPos(ImVec2(width - 10, height - 10), ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowBgAlpha(0.6f);
  char title[80];
  std::snprintf(title, sizeof title, "%s #%d%s###boat", boat->type->spec.kind.c_str(), boat->id,
                boat->moored() ? " (moored)" : "");
  ImGui::Begin(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove);
  ImGui::Text("model: %s", boat->action->buoyancyModel() == keel::BuoyancyModel::Columns ? "columns (far-boat preset)"
                                                                                         : "triangles (full detail)");
  ImGui::Text("speed %5.1f kn   heading %03.0f deg", t.speed_kn, t.heading_deg);
  ImGui::Text("heel %+5.1f deg   trim %+5.1f deg", t.heel_deg, t.trim_deg);
  ImGui::Text("draft %.2f m   submerged %.2f m^3", t.draft_m, t.submergedVolume_m3);
  ImGui::Text("mass %.0f kg   displaces %.0f kg", boat->type->mass_kg,
              t.submergedVolume_m3 * keel::kSeaWaterDensity_kgpm3);
  ImGui::Text("ballast %.0f kg/m^3 (keel::MassModel)", boat->type->ballastDensity_kgpm3);
  ImGui::Separator();
  ImGui::Text("forces [kN]        x        y        z");
  const auto row = [](const char* name, const btVector3& f) {
    ImGui::Text("%-12s %8.2f %8.2f %8.2f", name, f.x() / 1e3, f.y() / 1e3, f.z() / 1e3);
  };
  row("buoyancy", t.buoyancy_N);
  row("viscous", t.viscous_N);
  row("press. drag", t.pressureDrag_N);
  row("slamming", t.slamming_N);
  row("air", t.air_N);
  row("weight", t.weight_N);
  row(t.propellerWet ? "thrust" : "thrust (dry)", t.thrust_N);
  row("rudder", t.rudder_N);
  if (t.dragClamp < 1) ImGui::TextDisabled("drag clamped to %.0f%% (stability)", t.dragClamp * 100);
  ImGui::Separator();
  ImGui::ProgressBar(float(std::abs(boat->helm.throttle)), ImVec2(160, 0),
                     boat->helm.throttle < 0 ? "astern" : "throttle");
  ImGui::SameLine();
  ImGui::Text("rudder %+4.0f%%", boat->helm.rudder * 100);
  int nodes = 0;
  const double diff = water_->maxDifference_m(*harbour_.water(), harbour_.time_s(), t.position_m.x(), t.position_m.z(),
                                              boat->type->hull->radius_m(), &nodes);
  ImGui::Text("water drawn vs felt: max |dh| %.1e m over %d nodes", diff, nodes);
  ImGui::Text("Keel status: %s", boat->action->status().ok() ? "ok" : boat->action->status().describe().c_str());
  hudFlooding(*boat);
  // Oldest sample first.
  std::array<float, kPlotSamples> heave{}, roll{};
  for (std::size_t i = 0; i < kPlotSamples; ++i) {
    heave[i] = heave_[(plotCursor_ + i) % kPlotSamples];
    roll[i] = roll_[(plotCursor_ + i) % kPlotSamples];
  }
  char label[64];
  std::snprintf(label, sizeof label, "heave %+.2f m", t.heave_m);
  ImGui::PlotLines("##heave", heave.data(), int(kPlotSamples), 0, label, FLT_MAX, FLT_MAX, ImVec2(260, 44));
  std::snprintf(label, sizeof label, "roll %+.1f deg", t.heel_deg);
  ImGui::PlotLines("##roll", roll.data(), int(kPlotSamples), 0, label, FLT_MAX, FLT_MAX, ImVec2(260, 44));
  ImGui::End();
}

void HarbourApp::hudFlooding(const Boat& boat) {
  const keel::WaterAction& action = *boat.action;
  const keel::FloodingStatus& f = action.flooding();
  if (f.compartments.empty()) return;
  ImGui::Separator();
  ImGui::Text("floodwater %.0f kg in %zu compartments (0: stern)", double(f.floodwaterMass_kg), f.compartments.size());
  for (std::size_t i = 0; i < f.compartments.size(); ++i) {
    const keel::CompartmentStatus& c = f.compartments[i];
    char label[96];
    std::snprintf(label, sizeof label, "%zu: %.2f / %.2f m^3  %+.2f m^3/s", i, c.water_m3, double(c.capacity_m3),
                  double(c.inflow_m3ps));
    ImGui::ProgressBar(float(c.water_m3 / double(c.capacity_m3)), ImVec2(300, 0), label);
  }
  // Reserve buoyancy: 1 intact, 0 awash, below 0 sinking.
  const double intact = keel::kSeaWaterDensity_kgpm3 * double(action.hull()->volume_m3()) - boat.type->mass_kg;
  const double reserve = double(f.reserveBuoyancy_kg);
  char label[64];
  std::snprintf(label, sizeof label, reserve < 0 ? "SINKING (%.0f kg)" : "reserve buoyancy %.0f kg", reserve);
  ImGui::ProgressBar(float(std::clamp(reserve / intact, 0.0, 1.0)), ImVec2(300, 0), label);
}

void HarbourApp::hudHelp() {
  const float height = float(getRenderWindow()->getHeight());
  ImGui::SetNextWindowPos(ImVec2(10, height - 10), ImGuiCond_Always, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.45f);
  ImGui::Begin("keys", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoTitleBar);
  ImGui::TextUnformatted(
      "W/S throttle  A/D rudder  X stop  Tab next boat  B spawn  H hole  M model  K wakes  E spray  0-8 sea state");
  ImGui::TextUnformatted("P pause  N step  R reset  F1 debug  drag/arrows orbit  wheel/PgUp/PgDn zoom  Esc quit");
  ImGui::End();
}

}  // namespace demo

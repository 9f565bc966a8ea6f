#include "wakes.hpp"

#include "harbour.hpp"

#include <algorithm>
#include <chrono>

namespace demo {

int HarbourWorld::substepsOf(btScalar frame_s, int maxSubsteps, btScalar substep_s) const {
  // As btDiscreteDynamicsWorld::stepSimulation does it with maxSubSteps > 0:
  // the time left over from the last step plus this one, in whole substeps,
  // at most maxSubsteps.
  const btScalar local = m_localTime + frame_s;
  const int substeps = local >= substep_s ? int(local / substep_s) : 0;
  return std::min(substeps, maxSubsteps);
}

HarbourWakes::HarbourWakes(bool on, double size_m, double cell_m, const Basin& basin)
    : wantOn_(on),
      size_m_(size_m),
      cell_m_(cell_m),
      basinX_m_((basin.minX_m + basin.maxX_m) / 2),
      basinZ_m_((basin.minZ_m + basin.maxZ_m) / 2) {
  follows_ = size_m < basin.maxX_m - basin.minX_m || size_m < basin.maxZ_m - basin.minZ_m;
  centreX_m_ = basinX_m_;
  centreZ_m_ = basinZ_m_;
}

keel::WakeFieldSettings HarbourWakes::settings() const {
  keel::WakeFieldSettings s;
  s.size_m = size_m_;
  s.cellSize_m = cell_m_;
  s.centreEast_m = centreX_m_;
  s.centreNorth_m = centreZ_m_;
  return s;
}

void HarbourWakes::reset(std::shared_ptr<const keel::WaterSurface> sea) {
  sea_ = std::move(sea);
  setOn(wantOn_);
}

void HarbourWakes::setOn(bool on) {
  wantOn_ = on;
  field_ = on && sea_ ? std::make_shared<keel::WakeField>(sea_, settings()) : nullptr;
  water_ = field_ ? field_ : sea_;
  updateMs_ = 0;
}

void HarbourWakes::add(keel::WaterAction& boat) {
  if (field_) field_->add(boat);
}

void HarbourWakes::update(double from_s, double to_s, double focusX_m, double focusZ_m) {
  updateMs_ = 0;
  if (!field_ || !(to_s > from_s)) return;
  const auto start = std::chrono::steady_clock::now();
  if (follows_) {
    centreX_m_ = focusX_m;
    centreZ_m_ = focusZ_m;
    field_->setCentre(centreX_m_, centreZ_m_);
  }
  field_->update(from_s, to_s);
  updateMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

WakeStats HarbourWakes::stats() const {
  WakeStats s;
  s.on = on();
  s.size_m = size_m_;
  s.cell_m = cell_m_;
  s.following = follows_;
  if (!field_) return s;
  s.cell_m = field_->settings().cellSize_m;
  s.nodes = field_->nodesPerSide();
  s.boats = field_->boatCount();
  s.energy_J = field_->energy_J();
  s.updateMs = updateMs_;
  return s;
}

}  // namespace demo

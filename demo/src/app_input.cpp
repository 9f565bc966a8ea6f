// The harbour app's input: the selected boat, the keys and the mouse.
#include "app.hpp"

#include <OgreInput.h>

#include <algorithm>
#include <cmath>

namespace demo {
namespace {

/// The H key's hole in the selected boat [m^2].
constexpr double kKeyHole_m2 = 0.05;

}  // namespace

// ---------------------------------------------------------------------------
// Selection and commands
// ---------------------------------------------------------------------------

Boat* HarbourApp::selected() {
  auto& boats = harbour_.boats();
  for (auto& boat : boats)
    if (boat->id == selectedId_) return boat.get();
  if (boats.empty()) return nullptr;
  selectedId_ = boats.front()->id;
  return boats.front().get();
}

void HarbourApp::select(int offset) {
  auto& boats = harbour_.boats();
  if (boats.empty()) return;
  const auto n = int(boats.size());
  int index = 0;
  for (int i = 0; i < n; ++i)
    if (boats[std::size_t(i)]->id == selectedId_) index = i;
  selectedId_ = boats[std::size_t(((index + offset) % n + n) % n)]->id;
  plotPrimed_ = false;
}

void HarbourApp::reset() {
  harbour_.reset();
  resetEffects();
  syncBoats();
  selectedId_ = harbour_.boats().empty() ? 0 : harbour_.boats().front()->id;
  plotPrimed_ = false;
  updateCamera(0, true);
}

void HarbourApp::spawn() {
  const std::string& kind = knownKinds()[spawnKind_++ % knownKinds().size()];
  selectedId_ = harbour_.spawnAnywhere(kind).id;
}

// ---------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------

bool HarbourApp::keyPressed(const OgreBites::KeyboardEvent& evt) {
  const int key = evt.keysym.sym;
  keysDown_.insert(key);
  Boat* boat = selected();
  switch (key) {
    case OgreBites::SDLK_ESCAPE: lastFrame_ = true; break;
    case '\t': select((evt.keysym.mod & OgreBites::KMOD_SHIFT) ? -1 : 1); break;
    case 'x':
      if (boat) boat->helm.throttle = 0;
      break;
    case 'b': spawn(); break;
    case 'k': harbour_.setWakes(!harbour_.wakes().on()); break;
    case 'e': harbour_.setEffects(!harbour_.effectsOn()); break;
    case 'm': harbour_.setModelChoice(ModelChoice((int(harbour_.modelChoice()) + 1) % 3)); break;
    case 'h':
      if (Boat* boat = selected()) harbour_.hole(*boat, kKeyHole_m2);
      break;
    case 'p': paused_ = !paused_; break;
    case 'n': paused_ = true, stepOnce_ = true; break;
    case 'r': reset(); break;
    case OgreBites::SDLK_F1: debugMode_ = (debugMode_ + 1) % 3; break;
    case OgreBites::SDLK_LEFT: yaw_rad_ -= 0.1; break;
    case OgreBites::SDLK_RIGHT: yaw_rad_ += 0.1; break;
    case OgreBites::SDLK_UP: pitch_rad_ = std::min(1.4, pitch_rad_ + 0.05); break;
    case OgreBites::SDLK_DOWN: pitch_rad_ = std::max(0.03, pitch_rad_ - 0.05); break;
    case OgreBites::SDLK_PAGEUP: distance_m_ = std::max(6.0, distance_m_ / 1.15); break;
    case OgreBites::SDLK_PAGEDOWN: distance_m_ = std::min(300.0, distance_m_ * 1.15); break;
    default:
      if (key >= '0' && key <= '0' + kMaxSeaState) harbour_.setSeaState(key - '0');
  }
  return true;
}

bool HarbourApp::keyReleased(const OgreBites::KeyboardEvent& evt) {
  keysDown_.erase(evt.keysym.sym);
  return true;
}

bool HarbourApp::mousePressed(const OgreBites::MouseButtonEvent& evt) {
  dragging_ = evt.button == OgreBites::BUTTON_LEFT || evt.button == OgreBites::BUTTON_RIGHT;
  return true;
}

bool HarbourApp::mouseReleased(const OgreBites::MouseButtonEvent&) {
  dragging_ = false;
  return true;
}

bool HarbourApp::mouseMoved(const OgreBites::MouseMotionEvent& evt) {
  if (!dragging_) return false;
  yaw_rad_ -= evt.xrel * 0.005;
  pitch_rad_ = std::clamp(pitch_rad_ + evt.yrel * 0.005, 0.03, 1.4);
  return true;
}

bool HarbourApp::mouseWheelRolled(const OgreBites::MouseWheelEvent& evt) {
  distance_m_ = std::clamp(distance_m_ * std::pow(0.9, evt.y), 6.0, 300.0);
  return true;
}

}  // namespace demo

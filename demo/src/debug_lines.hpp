#pragma once
/// @file debug_lines.hpp
/// A btIDebugDraw that Ogre draws: Keel's actions (submerged pieces,
/// waterline, force arrow) and Bullet's collision shapes become coloured lines.

#include <LinearMath/btIDebugDraw.h>

#include <OgreSceneManager.h>

#include <string>
#include <vector>

namespace demo {

class DebugLines final : public btIDebugDraw {
 public:
  /// Lines named `name`; with `overEverything` they ignore depth (seen
  /// through water and hulls), otherwise they are hidden like solid things.
  DebugLines(Ogre::SceneManager& scene, const std::string& name, bool overEverything);

  /// Forgets last frame's lines.
  void clear();
  /// Uploads the lines drawn since clear() and shows (or hides) them.
  void flush(bool visible);

  void drawLine(const btVector3& from, const btVector3& to, const btVector3& colour) override;
  void drawContactPoint(const btVector3& point, const btVector3& normal, btScalar distance, int lifeTime,
                        const btVector3& colour) override;
  void reportErrorWarning(const char* warning) override;
  void draw3dText(const btVector3&, const char*) override {}
  void setDebugMode(int mode) override { mode_ = mode; }
  [[nodiscard]] int getDebugMode() const override { return mode_; }

 private:
  struct Line {
    btVector3 from, to, colour;
  };
  std::vector<Line> lines_;
  Ogre::ManualObject* object_;
  int mode_ = DBG_NoDebug;
};

}  // namespace demo

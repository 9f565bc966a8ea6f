#include "debug_lines.hpp"

#include "scene_builder.hpp"

#include <OgreLogManager.h>
#include <OgreManualObject.h>
#include <OgreMaterialManager.h>
#include <OgrePass.h>
#include <OgreSceneNode.h>
#include <OgreTechnique.h>

namespace demo {

DebugLines::DebugLines(Ogre::SceneManager& scene, const std::string& name, bool overEverything) {
  const std::string material = overEverything ? "lines/over" : "lines/solid";
  makeMaterial(material, Ogre::ColourValue::White, Lighting::Unlit);
  // Keel's debug output is seen through the water and the hulls: the
  // submerged pieces are the point of it.
  Ogre::MaterialManager::getSingleton()
      .getByName(material, Ogre::RGN_DEFAULT)
      ->getTechnique(0)
      ->getPass(0)
      ->setDepthCheckEnabled(!overEverything);
  object_ = scene.createManualObject(name);
  object_->setDynamic(true);
  object_->setCastShadows(false);
  if (overEverything) object_->setRenderQueueGroup(Ogre::RENDER_QUEUE_OVERLAY - 1);
  object_->begin(material, Ogre::RenderOperation::OT_LINE_LIST);
  object_->position(0, 0, 0);  // a section must not start empty
  object_->colour(0, 0, 0, 0);
  object_->position(0, 0, 0);
  object_->colour(0, 0, 0, 0);
  object_->end();
  scene.getRootSceneNode()->createChildSceneNode()->attachObject(object_);
  object_->setVisible(false);
}

void DebugLines::clear() { lines_.clear(); }

void DebugLines::flush(bool visible) {
  object_->setVisible(visible);
  if (!visible) return;
  object_->beginUpdate(0);
  object_->position(0, 0, 0);
  object_->colour(0, 0, 0, 0);
  object_->position(0, 0, 0);
  object_->colour(0, 0, 0, 0);
  for (const Line& l : lines_) {
    const Ogre::ColourValue c(l.colour.x(), l.colour.y(), l.colour.z());
    object_->position(l.from.x(), l.from.y(), l.from.z());
    object_->colour(c);
    object_->position(l.to.x(), l.to.y(), l.to.z());
    object_->colour(c);
  }
  object_->end();
}

void DebugLines::drawLine(const btVector3& from, const btVector3& to, const btVector3& colour) {
  lines_.push_back({from, to, colour});
}

void DebugLines::drawContactPoint(const btVector3& point, const btVector3& normal, btScalar, int,
                                  const btVector3& colour) {
  drawLine(point, point + normal * 0.5f, colour);
}

void DebugLines::reportErrorWarning(const char* warning) {
  Ogre::LogManager::getSingleton().logWarning(std::string("Bullet: ") + warning);
}

}  // namespace demo

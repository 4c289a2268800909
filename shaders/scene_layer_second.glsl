// shaders/scene_layer_second.glsl — scene.frag's "scene_layer.glsl" for the second layer
// (ScenePass::drawSecondLayer, depth peeling): only what lies behind the first.
const bool kSecondLayer = true;

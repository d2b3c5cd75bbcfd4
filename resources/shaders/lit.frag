#version 150 core
// Lit mesh material, fragment stage: a key light fixed to the camera, above it and a little to
// its left (as a photographer's key light, F3D's light kit or Roblox Studio's afternoon sun: the
// tops of things are lit most), a weaker headlight (light at the eye) and hemisphere ambient
// (sky above, ground below), multiplied by the vertex colour. Meshes without normals (zero
// vectors) fall back to the face normal from screen-space derivatives (lines, which have none,
// face the eye); back faces are lit as front faces so meshes with flipped winding stay readable.
// Opaque passes write alpha 1; the translucent pass (alphaFromColor = 1) writes base colour
// alpha × vertex colour alpha.

in vec3 worldPosition;
in vec3 worldNormal;
in vec4 color;

out vec4 fragColor;

uniform vec3 eyePosition;
uniform mat4 viewMatrix;
uniform vec4 baseColor;
uniform vec3 skyColor;
uniform vec3 groundColor;
uniform vec3 highlightColor;
uniform float highlight;
uniform float alphaFromColor;

void main()
{
    vec3 v = normalize(eyePosition - worldPosition);
    vec3 n = worldNormal;
    if (dot(n, n) < 1e-10) {
        vec3 dx = dFdx(worldPosition), dy = dFdy(worldPosition);
        n = cross(dx, dy);
        // A line has no face to take a normal from (both derivatives run along it): lit as
        // facing the eye, instead of the black of normalize(0) or a direction made of rounding.
        if (dot(n, n) <= 1e-6 * dot(dx, dx) * dot(dy, dy))
            n = v;
    }
    n = normalize(n);
    if (dot(n, v) < 0.0)
        n = -n;

    float head = max(dot(n, v), 0.0);
    // The key light's direction in camera space, turned into the world (the view matrix's
    // rotation is orthonormal: its transpose is its inverse). Keep in step with shade() in
    // core/export/preview_render.cpp.
    vec3 keyDir = transpose(mat3(viewMatrix)) * normalize(vec3(-0.45, 0.6, 0.65));
    float key = max(dot(n, keyDir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(groundColor, skyColor, hemi);
    vec3 albedo = baseColor.rgb * color.rgb;
    vec3 lit = albedo * (0.65 * ambient + 0.35 * head + 0.45 * key) +
               vec3(0.10) * pow(max(dot(n, normalize(keyDir + v)), 0.0), 48.0);

    // Selection: tint plus a rim that brightens silhouettes.
    float rim = pow(1.0 - head, 2.0);
    lit = mix(lit, highlightColor, highlight * (0.22 + 0.5 * rim));

    fragColor = vec4(lit, mix(1.0, baseColor.a * color.a, alphaFromColor));
}

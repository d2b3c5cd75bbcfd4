#version 150 core
// Background: one screen-covering triangle at the far plane.

in vec3 vertexPosition;
out float height;

void main()
{
    height = vertexPosition.y * 0.5 + 0.5;
    gl_Position = vec4(vertexPosition.xy, 0.999999, 1.0);
}

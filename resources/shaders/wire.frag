#version 150 core
// Wireframe overlay pass: flat line colour (lines are rasterised with polygon mode).

out vec4 fragColor;
uniform vec4 wireColor;

void main()
{
    fragColor = wireColor;
}

// The default theme, and the element, imported as the package's README says:
// at the top, where the server-side render imports it too.
import DefaultTheme from "vitepress/theme";
import "opb-viewer";

export default DefaultTheme;

#!/usr/bin/env sh
# Install the official Notion MCP server (@notionhq/notion-mcp-server) for tests/test_kb_mcp.py.
#
# Idempotent; needs node >= 18 and npm. The test looks in the same folder:
#   CLAWMARK_NOTION_MCP_DIR   install prefix   (default: ~/.cache/clawmark/notion-mcp)
#   CLAWMARK_NOTION_MCP_VERSION  package version (default: the version the test was written against)
set -eu
DIR="${CLAWMARK_NOTION_MCP_DIR:-$HOME/.cache/clawmark/notion-mcp}"
VERSION="${CLAWMARK_NOTION_MCP_VERSION:-2.5.2}"
mkdir -p "$DIR"
npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "@notionhq/notion-mcp-server@$VERSION"
echo "notion-mcp-server $VERSION installed in $DIR"

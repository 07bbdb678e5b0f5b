"""The interface's words in English and Simplified Chinese: one catalogue, read through `t(key)`.

Gradio's `I18n` translates in the browser, by the browser's language (`zh-CN`, `zh`, `zh-Hans` get
Chinese, anything else English); the header's language switch changes it on the spot and the
browser remembers the choice. Only words written by us are here: what a gateway sends (answers,
error messages, model names) is shown as it arrives. Wire names (`top_p`, `tool_choice`) stay as
they are in both languages. `CONVERTED_MODULES` are the modules that write no interface text
outside this catalogue (a test checks them).
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

import gradio as gr
from gradio.context import LocalContext
from gradio.i18n import I18nData

from playground.ui.i18n_notes import EN_NOTES, ZH_NOTES
from playground.ui.i18n_tabs import EN_TABS
from playground.ui.i18n_tabs_zh import ZH_TABS
from playground.ui.language import LANGUAGE_COOKIE, is_chinese

EN: dict[str, str] = {
    # header, connection, tabs
    "header.title": "# Gateway Playground\nTry every model family and interface of the gateway from your browser.",
    "header.tour": "Tour",
    "header.keys": "?",
    "header.language": "Language",
    "connection.panel": "Connection",
    "connection.url": "Base URL",
    "connection.key": "API key",
    "connection.remember": "Remember the key in this browser",
    "connection.remember_info": "Kept in this browser's local storage, obscured but not encrypted: anyone using this browser profile could recover it.",
    "connection.test": "Test connection",
    "tab.chat": "Chat", "tab.responses": "Responses", "tab.messages": "Messages", "tab.native": "Native",
    "tab.embeddings": "Embeddings", "tab.images": "Images", "tab.compare": "Compare", "tab.report": "Report", "tab.video": "Video",
    # shared widgets
    "inspector.panel": "Inspector and code",
    "inspector.request_tab": "Request",
    "inspector.request": "Request (key redacted)",
    "inspector.response_tab": "Response / events",
    "inspector.response": "Status and raw events",
    "inspector.timeline_tab": "Timeline",
    "inspector.timeline_empty": "Stream a reply to see its events on a time line, checked against the format's rules.",
    "inspector.curl": "curl",
    "inspector.python_tab": "Python",
    "inspector.python": "Python (httpx)",
    "conversation.idle": "Type a message (Enter sends)",
    "conversation.replying": "A reply is on its way (Esc stops it)…",
    "conversation.tool_result": "Tool result",
    "conversation.tool_example": 'e.g. {"temperature_c": 21}',
    "conversation.tool_send": "Send tool result and continue",
    "conversation.stop": "Stop",
    "conversation.retry": "Retry",
    "conversation.clear": "Clear",
    "branches.button": "Branch from the clicked message",
    "branches.picker": "Branches",
    "presets.panel": "Presets",
    "presets.pick": "Load a preset",
    "presets.name": "Save the settings as",
    "presets.name_example": "e.g. terse JSON answers",
    "presets.save": "Save preset",
    "presets.delete": "Delete preset",
    "presets.note": "Presets are kept in this browser only when you save one; keys are never kept.",
    "session.panel": "Save or load this session",
    "session.save": "Save to a file",
    "session.load": "Load a saved file",
    "session.download": "Saved session (settings and conversation; never the key)",
    "developer.panel": "Developer",
    "developer.markers": ("**Demo gateway test markers** (ignored by real gateways): put `[[fault:NAME]]` in a prompt to make the demo "
                          "fail on purpose (for example `[[fault:cut]]` cuts a stream, `[[fault:status:429]]` answers *too many requests*); "
                          "the word *forbidden* makes a picture or video request be refused."),
    "developer.video_markers": "`[[video_mb:50]]` in a video prompt makes the demo's result about 50 MB (to try big downloads).",
    "links.copy": "Copy link to this tab",
    "links.box": "Link (copied; it holds the tab, model, preset and text, never your key)",
    "curl.panel": "Import a curl command",
    "curl.command": "curl command (from the gateway's docs or a browser's “copy as curl”)",
    "curl.open": "Open it in the right tab",
    "curl.open_keep": "Open it, keep my base URL",
    # the guide
    "guide.tour": """### A two-minute tour
1. **Pick a tab** at the top: each is one way of talking to the gateway (Chat, Responses, Messages, Native,
   Embeddings, Images, Compare, Video).
2. **Press an example**: the buttons under the conversation fill in the question and the settings for you.
3. **Send it and watch it stream**: the answer appears word by word; **Stop** (or Esc) halts it, and what
   arrived stays.
4. **Open "Inspector and code"** below the answer: the exact request, every event that came back, and
   the same call as Python or curl.

The built-in demo gateway answers the examples offline, so nothing here costs anything. To use a real
gateway, type its address and key in the connection panel at the top.""",
    "guide.close": "Close the tour",
    "guide.shortcuts": """### Keyboard shortcuts
| Keys | What they do |
|---|---|
| **Ctrl+Enter** (⌘+Enter on a Mac) | Send, from any text box of the tab |
| **Esc** | Stop the answer that is arriving |
| **Ctrl+Shift+R** (⌘+Shift+R) | Retry the last message |
| **Enter** in the message box | Send (Shift+Enter starts a new line) |""",
    "guide.shortcuts_close": "Close",
    # the Chat tab
    "chat.placeholder": "Send a message to start. Try a `-thinking` model to see reasoning.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
    "chat.example.riddle": "Ask a thinking model a riddle",
    "chat.example.riddle_explains": "See the model reason in a **Thinking** section before it answers.",
    "chat.example.weather": "Let the model call a weather tool",
    "chat.example.weather_explains": "The model asks for `get_weather`; you type the result and it answers with it.",
    "chat.example.json": "Answer as JSON",
    "chat.example.json_explains": "Structured output: the reply follows a JSON Schema you give.",
    "chat.example.stop": "Stop a long answer",
    "chat.example.stop_explains": "A long reply: press **Stop** (or Esc) halfway; what arrived stays on screen.",
    "chat.model": "Model",
    "chat.system": "System prompt",
    "chat.stream": "Stream the reply",
    "chat.usage": "Ask for usage in the stream",
    "chat.usage_info": "stream_options.include_usage: OpenAI-style gateways send token counts only when asked",
    "chat.parameters": "Parameters",
    "chat.temperature": "Temperature (randomness)",
    "chat.top_p": "Top P (share of likely words considered)",
    "chat.max_tokens": "Longest answer in tokens (0 = not set)",
    "chat.effort": "Reasoning effort",
    "chat.tools_panel": "Tools and structured output",
    "chat.tools": "Tools (JSON array; empty = no tools)",
    "chat.insert_tool": "Insert an example tool",
    "chat.tool_choice": "When to call a tool (tool_choice, or a tool name)",
    "chat.schema": "Answer as JSON following this schema (response_format json_schema; empty = free text)",
    "chat.extensions": "JSON object with any of: thinking, enable_thinking, svc_thinking_to_content, parameters, extra_body, generationConfig, web_search_options, search_parameters",
    # the Responses tab
    "responses.placeholder": "Responses format. Attach images or documents (PDF, text) with the clip.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
    "responses.example.summary": "See a reasoning summary",
    "responses.example.summary_explains": "A reasoning model thinks first; its summary shows in the **Thinking** section.",
    "responses.example.chain": "Chain two turns",
    "responses.example.chain_explains": "Tick “Continue with previous_response_id”: the second turn sends only itself.",
    "responses.example.search": "Search the web",
    "responses.example.search_explains": "The web search tool: the answer cites its sources as links.",
    "responses.example.weather": "Let the model call a weather tool",
    "responses.example.weather_explains": "The model calls `get_weather`; type the result and it answers with it.",
    "responses.instructions": "Instructions (system)",
    "responses.chain": "Continue with previous_response_id",
    "responses.chain_info": "On: only the new turn is sent and the gateway remembers the rest. Off: the whole conversation is resent.",
    "responses.reasoning": "Reasoning",
    "responses.reasoning_note": "Applies to reasoning models only (o4-mini, gx-2.5-pro, gx-3-pro-preview, deepseek-reasoner); others ignore it.",
    "responses.effort": "Reasoning effort (reasoning.effort)",
    "responses.summary": "Reasoning summary (reasoning.summary, shown as Thinking)",
    "responses.max_tokens": "Longest answer in tokens (max_output_tokens; 0 = not set)",
    "responses.tools_panel": "Tools",
    "responses.tools": "Function tools (JSON array; empty = none)",
    "responses.tool_format": "Send function tools as",
    "responses.web_search": "Web search (web_search_preview)",
    "responses.context_size": "How much to search (search_context_size)",
    "responses.extensions": "JSON object with any of: parallel_tool_calls, max_tool_calls, truncation, metadata, user, previous_response_id",
    # the Native tab
    "native.example.think": "Think, then answer",
    "native.example.think_explains": "A thinking budget: the model's thoughts show in the **Thinking** section.",
    "native.example.draw": "Draw a picture",
    "native.example.draw_explains": "Image output: the answer comes with a generated picture you can download.",
    "native.example.ground": "Ground it in a web search",
    "native.example.ground_explains": "The grounding search tool: citations [1] [2] and the sources as links.",
    "native.example.weather": "Let the model call a weather tool",
    "native.example.weather_explains": "A function call: type the result and the model answers with it.",
    "native.placeholder": "Native generate-content format (`gx` models): thoughts, images, grounding, functions.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
    "native.model": "Model (goes in the URL path)",
    "native.model_info": "The image models (gx-…-image…) draw: picking one turns on image output.",
    "native.system": "System instruction",
    "native.images": "Answer with pictures too",
    "native.images_info": "Sends responseModalities: TEXT and IMAGE",
    "native.thinking": "Thinking",
    "native.thinking_info": "thinkingConfig",
    "native.budget": "How much the model may think (tokens)",
    "native.budget_info": "thinkingBudget; -1 lets the model decide",
    "native.generation": "Generation config",
    "native.top_k": "topK (0 = not set)",
    "native.max_tokens": "Longest answer in tokens (maxOutputTokens; 0 = not set)",
    "native.functions": "Functions (functionDeclarations: JSON array of {name, description, parameters})",
    "native.mode": "When to call a function (functionCallingConfig.mode)",
    "native.search": "Grounding search (svcSearch)",
    "native.safety_panel": "Safety settings and key",
    "native.safety": "safetySettings (JSON array of {\"category\", \"threshold\"})",
    "native.auth": "Send the key as",
    "native.auth_info": "The native endpoints take any of the three; a key in the URL is hidden everywhere it is shown.",
    "native.extensions": "Extension fields: JSON object with any of cachedContent, generationConfig (merged), toolConfig",
    # the Messages tab
    "messages.example.think": "Think before answering",
    "messages.example.think_explains": "Extended thinking: the model's reasoning appears in a **Thinking** section.",
    "messages.example.cache": "Cache a long document and ask twice",
    "messages.example.cache_explains": "Send, then press **Retry**: the second request reads the cached document (90% cheaper).",
    "messages.example.weather_explains": "The model asks for `get_weather`; you type the result and it answers with it.",
    "messages.example.search_explains": "The built-in web search tool: the answer cites what it found.",
    "messages.max_tokens": "Longest answer in tokens (max_tokens, required, > 0)",
    "messages.thinking": "Extended thinking",
    "messages.thinking_advice": "With thinking on, the spec recommends temperature 1.0 and top_p 0; budget_tokens must be greater than 1024 and below max_tokens.",
    "messages.budget": "How much the model may think (budget_tokens)",
    "messages.sampling": "Sampling and stop sequences",
    "messages.top_k": "top_k (0 = not set)",
    "messages.stops": "Stop at these words (stop_sequences: one per line or comma separated)",
    "messages.tools": "Function tools (JSON array of {\"name\", \"description\", \"input_schema\"})",
    "messages.web_search": "Web search tool (web_search_20250305)",
    "messages.max_uses": "At most this many searches (max_uses, 2-10 suggested)",
    "messages.city": "Searcher's city (user_location city)",
    "messages.country": "Country (user_location country)",
    "messages.parallel": "One tool call at a time (disable_parallel_tool_use)",
    "messages.cache_lab": "Prompt-cache lab",
    "messages.cache_note": "Mark cache breakpoints, send, then send again: the first request writes the prefix to the cache (creation tokens), later identical prefixes read it (read tokens, 90% cheaper). Prefixes below 1024 tokens (2048 for haiku) are not cached; `ephemeral` lasts 5 minutes, `persistent` 1 hour.",
    "messages.cache_system": "Cache breakpoint on the system prompt",
    "messages.cache_last": "Cache breakpoint on the last message",
    "messages.cache_type": "How long to keep it (cache_control type)",
    "messages.fill": "Fill the system prompt with a long document (~1,800 tokens)",
    "messages.extensions": "JSON object with any of: metadata, mcp_servers, context_management, cache_control",
    "messages.placeholder": "Messages format (`cl` models). Turn on thinking, try tools, or open the prompt-cache lab.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
}

ZH: dict[str, str] = {
    "header.title": "# 网关试验场\n在浏览器里试用网关的每个模型家族和每种接口。",
    "header.tour": "导览",
    "header.keys": "?",
    "header.language": "语言",
    "connection.panel": "连接",
    "connection.url": "基础 URL",
    "connection.key": "API 密钥",
    "connection.remember": "在此浏览器中记住密钥",
    "connection.remember_info": "保存在此浏览器的本地存储中，仅做混淆而未加密：使用此浏览器配置文件的任何人都可能取回它。",
    "connection.test": "测试连接",
    "tab.chat": "对话", "tab.responses": "Responses", "tab.messages": "Messages", "tab.native": "原生接口",
    "tab.embeddings": "向量嵌入", "tab.images": "图像", "tab.compare": "对比", "tab.report": "报告", "tab.video": "视频",
    "inspector.panel": "检查器与代码",
    "inspector.request_tab": "请求",
    "inspector.request": "请求（密钥已隐去）",
    "inspector.response_tab": "响应 / 事件",
    "inspector.response": "状态与原始事件",
    "inspector.timeline_tab": "时间线",
    "inspector.timeline_empty": "以流式方式接收一个回答，即可在时间线上看到它的事件，并按该格式的规则检查。",
    "inspector.curl": "curl",
    "inspector.python_tab": "Python",
    "inspector.python": "Python（httpx）",
    "conversation.idle": "输入消息（按 Enter 发送）",
    "conversation.replying": "回答正在到来（按 Esc 停止）…",
    "conversation.tool_result": "工具结果",
    "conversation.tool_example": '例如 {"temperature_c": 21}',
    "conversation.tool_send": "发送工具结果并继续",
    "conversation.stop": "停止",
    "conversation.retry": "重试",
    "conversation.clear": "清空",
    "branches.button": "从所点的消息处分支",
    "branches.picker": "分支",
    "presets.panel": "预设",
    "presets.pick": "载入预设",
    "presets.name": "将设置保存为",
    "presets.name_example": "例如：简短的 JSON 回答",
    "presets.save": "保存预设",
    "presets.delete": "删除预设",
    "presets.note": "只有在你保存预设时才会存到此浏览器；密钥从不保存。",
    "session.panel": "保存或载入本次会话",
    "session.save": "保存到文件",
    "session.load": "载入已保存的文件",
    "session.download": "已保存的会话（设置与对话；从不包含密钥）",
    "developer.panel": "开发者",
    "developer.markers": ("**演示网关的测试标记**（真实网关会忽略）：在提示中写 `[[fault:NAME]]` 可让演示网关故意出错"
                          "（例如 `[[fault:cut]]` 会切断流，`[[fault:status:429]]` 会回答“请求过多”）；"
                          "含有 *forbidden* 一词的图片或视频请求会被拒绝。"),
    "developer.video_markers": "在视频提示中写 `[[video_mb:50]]`，演示网关的结果约为 50 MB（用于试验大文件下载）。",
    "links.copy": "复制指向此标签页的链接",
    "links.box": "链接（已复制；包含标签页、模型、预设和文字，从不包含你的密钥）",
    "curl.panel": "导入 curl 命令",
    "curl.command": "curl 命令（来自网关文档或浏览器的“复制为 cURL”）",
    "curl.open": "在对应的标签页中打开",
    "curl.open_keep": "打开，但保留我的基础 URL",
    "guide.tour": """### 两分钟导览
1. **选择顶部的标签页**：每个标签页是与网关交流的一种方式（对话、Responses、Messages、原生接口、
   向量嵌入、图像、对比、视频）。
2. **点一个示例**：对话下方的按钮会替你填好问题和设置。
3. **发送并观看流式输出**：回答逐词出现；**停止**（或 Esc）可中止，已到达的内容会保留。
4. **打开回答下方的“检查器与代码”**：确切的请求、返回的每个事件，以及同一调用的 Python 或 curl 代码。

内置的演示网关离线回答这些示例，因此这里的一切都不产生费用。要使用真实网关，请在顶部的连接面板中
填写它的地址和密钥。""",
    "guide.close": "关闭导览",
    "guide.shortcuts": """### 键盘快捷键
| 按键 | 作用 |
|---|---|
| **Ctrl+Enter**（Mac 上为 ⌘+Enter） | 在标签页的任意文本框中发送 |
| **Esc** | 停止正在到来的回答 |
| **Ctrl+Shift+R**（⌘+Shift+R） | 重试上一条消息 |
| 在消息框中按 **Enter** | 发送（Shift+Enter 换行） |""",
    "guide.shortcuts_close": "关闭",
    "chat.placeholder": "发送一条消息开始。试试 `-thinking` 模型，可以看到推理过程。\n\n用铅笔图标编辑或删除你的消息；回形针可附加文件。",
    "chat.example.riddle": "让会思考的模型猜个谜语",
    "chat.example.riddle_explains": "看模型先在 **Thinking** 部分推理，然后再回答。",
    "chat.example.weather": "让模型调用天气工具",
    "chat.example.weather_explains": "模型请求调用 `get_weather`；你输入结果，它再据此回答。",
    "chat.example.json": "以 JSON 回答",
    "chat.example.json_explains": "结构化输出：回答遵循你给出的 JSON Schema。",
    "chat.example.stop": "停止一个长回答",
    "chat.example.stop_explains": "一个很长的回答：中途按 **停止**（或 Esc）；已到达的内容留在屏幕上。",
    "chat.model": "模型",
    "chat.system": "系统提示",
    "chat.stream": "流式输出回答",
    "chat.usage": "在流中请求用量",
    "chat.usage_info": "stream_options.include_usage：OpenAI 风格的网关只在被要求时才发送 token 数",
    "chat.parameters": "参数",
    "chat.temperature": "温度（随机性）",
    "chat.top_p": "Top P（考虑的高概率词所占比例）",
    "chat.max_tokens": "回答的最大 token 数（0 = 不设置）",
    "chat.effort": "推理强度",
    "chat.tools_panel": "工具与结构化输出",
    "chat.tools": "工具（JSON 数组；留空 = 不用工具）",
    "chat.insert_tool": "插入一个示例工具",
    "chat.tool_choice": "何时调用工具（tool_choice，或一个工具名）",
    "chat.schema": "按此 schema 以 JSON 回答（response_format json_schema；留空 = 自由文本）",
    "chat.extensions": "JSON 对象，可包含：thinking、enable_thinking、svc_thinking_to_content、parameters、extra_body、generationConfig、web_search_options、search_parameters",
    "responses.placeholder": "Responses 格式。用回形针附加图片或文档（PDF、文本）。\n\n用铅笔图标编辑或删除你的消息；回形针可附加文件。",
    "responses.example.summary": "查看推理摘要",
    "responses.example.summary_explains": "推理模型先思考；它的摘要显示在 **Thinking** 部分。",
    "responses.example.chain": "串联两轮对话",
    "responses.example.chain_explains": "勾选“用 previous_response_id 继续”：第二轮只发送它自己。",
    "responses.example.search": "搜索网页",
    "responses.example.search_explains": "网页搜索工具：回答以链接形式引用来源。",
    "responses.example.weather": "让模型调用天气工具",
    "responses.example.weather_explains": "模型调用 `get_weather`；输入结果，它再据此回答。",
    "responses.instructions": "指令（系统）",
    "responses.chain": "用 previous_response_id 继续",
    "responses.chain_info": "开：只发送新的一轮，其余由网关记住。关：每次重新发送整个对话。",
    "responses.reasoning": "推理",
    "responses.reasoning_note": "只对推理模型有效（o4-mini、gx-2.5-pro、gx-3-pro-preview、deepseek-reasoner）；其他模型会忽略。",
    "responses.effort": "推理强度（reasoning.effort）",
    "responses.summary": "推理摘要（reasoning.summary，显示为 Thinking）",
    "responses.max_tokens": "回答的最大 token 数（max_output_tokens；0 = 不设置）",
    "responses.tools_panel": "工具",
    "responses.tools": "函数工具（JSON 数组；留空 = 无）",
    "responses.tool_format": "函数工具的发送形式",
    "responses.web_search": "网页搜索（web_search_preview）",
    "responses.context_size": "搜索范围（search_context_size）",
    "responses.extensions": "JSON 对象，可包含：parallel_tool_calls、max_tool_calls、truncation、metadata、user、previous_response_id",
    "native.example.think": "先思考，再回答",
    "native.example.think_explains": "思考预算：模型的思考显示在 **Thinking** 部分。",
    "native.example.draw": "画一幅图",
    "native.example.draw_explains": "图像输出：回答附带一张生成的图片，可以下载。",
    "native.example.ground": "用网页搜索作为依据",
    "native.example.ground_explains": "依据搜索工具：引用标记 [1] [2]，来源以链接列出。",
    "native.example.weather": "让模型调用天气工具",
    "native.example.weather_explains": "函数调用：输入结果，模型再据此回答。",
    "native.placeholder": "原生 generate-content 格式（`gx` 模型）：思考、图像、搜索依据、函数调用。\n\n用铅笔图标编辑或删除你的消息；回形针可附加文件。",
    "native.model": "模型（写在 URL 路径中）",
    "native.model_info": "图像模型（gx-…-image…）会画图：选中后自动开启图像输出。",
    "native.system": "系统指令",
    "native.images": "回答中也包含图片",
    "native.images_info": "发送 responseModalities：TEXT 和 IMAGE",
    "native.thinking": "思考",
    "native.thinking_info": "thinkingConfig",
    "native.budget": "模型可用于思考的量（token）",
    "native.budget_info": "thinkingBudget；-1 表示由模型决定",
    "native.generation": "生成配置",
    "native.top_k": "topK（0 = 不设置）",
    "native.max_tokens": "回答的最大 token 数（maxOutputTokens；0 = 不设置）",
    "native.functions": "函数（functionDeclarations：{name, description, parameters} 的 JSON 数组）",
    "native.mode": "何时调用函数（functionCallingConfig.mode）",
    "native.search": "依据搜索（svcSearch）",
    "native.safety_panel": "安全设置与密钥",
    "native.safety": "safetySettings（{\"category\", \"threshold\"} 的 JSON 数组）",
    "native.auth": "密钥的发送方式",
    "native.auth_info": "原生端点接受三种方式中的任何一种；URL 中的密钥在显示处都会被隐去。",
    "native.extensions": "扩展字段：JSON 对象，可包含 cachedContent、generationConfig（合并）、toolConfig",
    "messages.example.think": "先思考再回答",
    "messages.example.think_explains": "扩展思考：模型的推理显示在 **Thinking** 部分。",
    "messages.example.cache": "缓存一份长文档并问两次",
    "messages.example.cache_explains": "发送，然后按 **重试**：第二次请求读取已缓存的文档（便宜 90%）。",
    "messages.example.weather_explains": "模型请求调用 `get_weather`；你输入结果，它再据此回答。",
    "messages.example.search_explains": "内置的网页搜索工具：回答引用它找到的内容。",
    "messages.max_tokens": "回答的最大 token 数（max_tokens，必填，> 0）",
    "messages.thinking": "扩展思考",
    "messages.thinking_advice": "开启思考时，规范建议 temperature 1.0、top_p 0；budget_tokens 必须大于 1024 且小于 max_tokens。",
    "messages.budget": "模型可用于思考的量（budget_tokens）",
    "messages.sampling": "采样与停止序列",
    "messages.top_k": "top_k（0 = 不设置）",
    "messages.stops": "遇到这些词时停止（stop_sequences：每行一个或用逗号分隔）",
    "messages.tools": "函数工具（{\"name\", \"description\", \"input_schema\"} 的 JSON 数组）",
    "messages.web_search": "网页搜索工具（web_search_20250305）",
    "messages.max_uses": "最多搜索次数（max_uses，建议 2-10）",
    "messages.city": "搜索者所在城市（user_location city）",
    "messages.country": "国家（user_location country）",
    "messages.parallel": "一次只调用一个工具（disable_parallel_tool_use）",
    "messages.cache_lab": "提示缓存实验",
    "messages.cache_note": "标记缓存断点，发送，再发送一次：第一次请求把前缀写入缓存（创建 token），之后相同的前缀从缓存读取（读取 token，便宜 90%）。少于 1024 个 token（haiku 为 2048）的前缀不会被缓存；`ephemeral` 保留 5 分钟，`persistent` 保留 1 小时。",
    "messages.cache_system": "在系统提示上设置缓存断点",
    "messages.cache_last": "在最后一条消息上设置缓存断点",
    "messages.cache_type": "保留多久（cache_control type）",
    "messages.fill": "用一份长文档填充系统提示（约 1,800 个 token）",
    "messages.extensions": "JSON 对象，可包含：metadata、mcp_servers、context_management、cache_control",
    "messages.placeholder": "Messages 格式（`cl` 模型）。开启思考、试用工具，或打开提示缓存实验。\n\n用铅笔图标编辑或删除你的消息；回形针可附加文件。",
}

for _part_en, _part_zh in ((EN_TABS, ZH_TABS), (EN_NOTES, ZH_NOTES)):
    assert not (_part_en.keys() & EN.keys()), f"keys given twice: {sorted(_part_en.keys() & EN.keys())}"
    EN.update(_part_en)
    ZH.update(_part_zh)
CHINESE_LOCALES = ("zh-CN", "zh", "zh-Hans", "zh-SG")
I18N = gr.I18n(en=EN, **{locale: ZH for locale in CHINESE_LOCALES})
CONVERTED_MODULES = (
    "playground.ui.app", "playground.ui.widgets", "playground.ui.conversation_panel", "playground.ui.presets",
    "playground.ui.session_file", "playground.ui.developer", "playground.ui.guide", "playground.ui.links",
    "playground.ui.branches", "playground.ui.curl_panel", "playground.ui.examples", "playground.ui.chat_tab",
    "playground.ui.responses_tab", "playground.ui.native_tab", "playground.ui.messages_tab",
    "playground.ui.embeddings_tab", "playground.ui.images_tab", "playground.ui.compare_tab", "playground.ui.video_tab",
    "playground.ui.video_form", "playground.ui.report_tab", "playground.ui.report_views", "playground.ui.batch_tab",
    "playground.ui.batch_views", "playground.ui.column_picker", "playground.ui.template_vars", "playground.ui.prices",
)


def t(key: str) -> I18nData:
    """The interface text `key`, translated in the browser; an unknown key fails at once."""
    if key not in EN:
        raise KeyError(f"no interface text {key!r} in playground/ui/i18n.py")
    return I18N(key)


def english(key: str) -> str:
    """The English text of `key`."""
    return EN[key]


def visitor_language() -> str:
    """"zh" or "en" for the event being handled: the header switch's choice (its cookie), else the
    browser's Accept-Language; "en" outside an event (tests calling handlers directly)."""
    request = LocalContext.request.get(None)
    if request is None:
        return "en"
    try:
        headers = request.headers
        cookie = SimpleCookie(headers.get("cookie") or "").get(LANGUAGE_COOKIE)
        choice = cookie.value if cookie is not None else headers.get("accept-language")
    except (AttributeError, KeyError, ValueError):
        return "en"
    return "zh" if is_chinese(choice) else "en"


def say(key: str, **values: Any) -> str:
    """Text a handler builds at run time, in the visitor's language (`visitor_language`), with
    `values` filled into the catalogue's `{name}` places. One helper for every tab: the browser
    translates only whole texts (Gradio's `I18nData`, one per value, no values inside), so texts
    with numbers or several parts are chosen here."""
    text = (ZH if visitor_language() == "zh" else EN)[key]
    return text.format(**values) if values else text

"""Chinese for the handler modules' texts (see `playground.ui.i18n.client_words`)."""

ZH: dict[str, str] = {
    'min length': '最短长度',
    'max length': '最长长度',
    'repeat each row N times': '每行重复 N 次',
    'max output tokens': '最大输出 token 数',
    'Response schema': '回答的 JSON schema',
    'the command has no JSON body to import': '这条命令没有可导入的 JSON 请求体',
    'the base URL is {len(text)} characters long; at most {MAX_URL_CHARS} are accepted': '基础 URL 长 {len(text)} 个字符；最多只接受 {MAX_URL_CHARS} 个',
    'the base URL contains spaces, line breaks or control characters': '基础 URL 里有空格、换行或控制字符',
    'the base URL must start with http:// or https:// (got {plain(text[:60])})': '基础 URL 必须以 http:// 或 https:// 开头（收到的是 {plain(text[:60])}）',
    'the base URL is not a valid address ({exc}); check the host and port': '基础 URL 不是有效的地址（{exc}）；请检查主机名和端口',
    'the base URL has no host name': '基础 URL 里没有主机名',
    "the base URL's port must be between 1 and 65535": '基础 URL 的端口必须在 1 到 65535 之间',
    'the base URL must not contain a user name or password: type the key in the API key box': '基础 URL 里不能有用户名或密码：请把密钥填在“API 密钥”框中',
    'a base URL is a base: remove the ? or # part (paths such as /v1/... are added by the playground)': '基础 URL 只写到基础部分：请去掉 ? 或 # 及其后面的内容（/v1/... 这样的路径由试验场自己加上）',
    'the base URL cannot be used: {plain(problem)}': '这个基础 URL 不能使用：{plain(problem)}',
    'the host {plain(host)} is written with special digits (it reads as {plain(folded)}); type an IP address in plain digits 0-9': '主机 {plain(host)} 是用特殊的数字字符写的（实际读作 {plain(folded)}）；请用普通数字 0-9 输入 IP 地址',
    'the host {plain(host)} is an IPv4 address in an ambiguous form (leading zeros, hex, or fewer than four parts, which some programs read as octal or pad); write four decimal numbers, e.g. 127.0.0.1': '主机 {plain(host)} 是写法有歧义的 IPv4 地址（有前导零、用了十六进制，或不足四段，有些程序会把它当作八进制或自动补齐）；请写成四个十进制数，例如 127.0.0.1',
    'the API key contains characters a key cannot have (line breaks, control or non-ASCII characters); check what was pasted': 'API 密钥里有密钥不可能含有的字符（换行、控制字符或非 ASCII 字符）；请检查粘贴的内容',
    'tool result: {BROKEN_TEXT}': '工具结果：{BROKEN_TEXT}',
    'The model called **`{call.name}`** (id `{call.id}`) with:\n```json\n{pretty_arguments(call.arguments)}\n```\nType what the tool returned and send it to continue.': '模型调用了 **`{call.name}`**（id `{call.id}`），参数如下：\n```json\n{pretty_arguments(call.arguments)}\n```\n请输入工具返回的内容并发送，对话就会继续。',
    'embed some texts first: there are no vectors to write': '请先嵌入一些文本：还没有可写出的向量',
    'Extra fields': '额外字段',
    "Extra fields: {', '.join(controlled)} has its own control above; set it there": "额外字段：{', '.join(controlled)} 在上方有自己的控件；请在那里设置",
    'an array [...]': '数组 [...]',
    'an object {{...}}': '对象 {{...}}',
    '{label}: must be {wanted}': '{label}：必须是{wanted}',
    'Extension fields': '扩展字段',
    "Extension fields: unknown field(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}": "扩展字段：未知的字段 {', '.join(unknown)}；允许的字段：{', '.join(allowed)}",
    '{label}: {value} is not a number': '{label}：{value} 不是数字',
    '{label}: must be a whole number (got {value}); it is not rounded for you': '{label}：必须是整数（收到的是 {value}）；不会替你四舍五入',
    'attach at most {MAX_REFERENCES} reference images': '最多附加 {MAX_REFERENCES} 张参考图片',
    'give reference images or a contents list in Extra fields, not both': '参考图片和“额外字段”里的 contents 列表只能给一种，不能同时给',
    "**Some images of the answer could not be used** — {plain('; '.join(result.problems))}. The others are shown.": "**回答中有些图片无法使用** —— {plain('; '.join(result.problems))}。其余图片照常显示。",
    'generate an image and pick it in the gallery first': '请先生成一张图片，并在图库中选中它',
    'type what to change in the picked image': '请输入要对选中的图片做什么修改',
    "response_format {rest['response_format']}: this family only returns b64_json": "response_format {rest['response_format']}：这个模型系列只返回 b64_json",
    'an image could not be encoded': '有一张图片无法编码',
    'Token count: type a message to see how many input tokens it will cost.': 'Token 计数：输入一条消息，即可看到它要用掉多少输入 token。',
    'Token count unavailable: {plain(error.message)}': '无法计算 token 数：{plain(error.message)}',
    '**{tokens}** input tokens in the request Send would make now (count_tokens; not billed).': '现在点“发送”会发出的请求含 **{tokens}** 个输入 token（count_tokens；不计费）。',
    'Send a message with a cache breakpoint, then send again to see a cache read.': '发送一条带缓存断点的消息，再发送一次，就能看到缓存读取。',
    '| # | uncached input | cache creation | cache read | output | input cost vs. no cache |': '| # | 未缓存的输入 | 写入缓存 | 读取缓存 | 输出 | 输入费用（与不用缓存相比） |',
    'Cache hit: {last.cached_tokens} tokens were read from the cache at a 90% discount.': '缓存命中：{last.cached_tokens} 个 token 从缓存读取，便宜 90%。',
    'Cache written: send the same prefix again (within its lifetime) to read it.': '已写入缓存：在缓存有效期内再次发送相同的前缀，即可从缓存读取。',
    "Nothing was cached: the whole prompt is {total} tokens and {model} caches only prefixes of at least {minimum} tokens. Use 'Fill with a long document'.": '没有缓存任何内容：整个提示只有 {total} 个 token，而 {model} 只缓存至少 {minimum} 个 token 的前缀。请使用“用一份长文档填充系统提示”。',
    'Nothing was cached: mark a breakpoint (cache the system prompt or the last message); any change to the prefix invalidates the cache.': '没有缓存任何内容：请设置一个缓存断点（在系统提示或最后一条消息上）；前缀有任何改动，缓存都会失效。',
    'Function declarations': '函数声明',
    'Safety settings': '安全设置',
    'the {TAB_NAMES.get(tab, tab)} tab': '{TAB_NAMES.get(tab, tab)} 标签页',
    '🛠 Tool call: {{name}}': '🛠 工具调用：{{name}}',
    '[attachment {{name}} not loaded: version 1 session files refer to files by path, which are never opened]': '[附件 {{name}} 未载入：第 1 版会话文件按路径引用文件，而这些路径从不会被打开]',
    '[an attachment that is not on this server any more]': '[一个已不在本服务器上的附件]',
    '[an attachment that could not be read]': '[一个无法读取的附件]',
    '[a part this playground does not save]': '[试验场不保存的一部分内容]',
    'the top level': '顶层',
    'conversation.shown[{index}].content[{number}]: a part must be text or an attachment carried as data (name, mime_type, data); references to files or URLs are never followed, so the file was refused and nothing changed': 'conversation.shown[{index}].content[{number}]：每一部分必须是文本，或以数据形式携带的附件（name、mime_type、data）；指向文件或 URL 的引用从不会被打开，所以这个文件被拒绝了，什么都没有改变',
    'the file is not a saved session of this playground': '这个文件不是本试验场保存的会话',
    "the file is a version {version} session; this playground reads versions 1 and {VERSION}{' (it was saved by a newer playground)' if newer else ''}": "这个文件的会话版本是 {version}；本试验场能读取的版本是 1 和 {VERSION}{' (it was saved by a newer playground)' if newer else ''}",
    "the file holds a {str(document.get('tab'))[:40]} session; open it in that tab": "这个文件保存的是 {str(document.get('tab'))[:40]} 标签页的会话；请在那个标签页中打开",
    'the file is larger than {MAX_FILE_BYTES // 1000000} MB': '这个文件大于 {MAX_FILE_BYTES // 1000000} MB',
    'the file is not a saved session ({problem})': '这个文件不是保存的会话（{problem}）',
    "the file's form or conversation is missing": '这个文件缺少表单或对话',
    "the file names settings this tab does not have: {', '.join(map(str, unknown))[:300]}": "这个文件里有本标签页没有的设置：{', '.join(map(str, unknown))[:300]}",
    '{dropped} attachment(s) were not loaded: version 1 files refer to files by path, which are never opened': '有 {dropped} 个附件未载入：第 1 版文件按路径引用文件，而这些路径从不会被打开',
    'the file refers to a file on the server by path (at {where}); a session file carries its attachments inside it as data, so this file was refused and nothing changed': '这个文件按路径引用了服务器上的文件（位置：{where}）；会话文件要把附件作为数据装在自己里面，所以这个文件被拒绝了，什么都没有改变',
    "the file's branches are not a list of conversations with the one shown": '这个文件的分支不是对话列表，或没有标明显示的是哪一个',
    '[attachment {{name}} is not shown: only files this playground created can be shown]': '[附件 {{name}} 不予显示：只能显示试验场自己创建的文件]',
    'the attachment {Path(path).name} is no longer on the server; attach it again': '附件 {Path(path).name} 已不在服务器上；请重新附加',
    '{where}: an attachment needs a name, a mime_type and its data (base64) as text': '{where}：附件需要以文本形式给出 name、mime_type 和它的数据（base64）',
    '{where}: the attachment {name} is larger than {MAX_ATTACHMENT_BYTES // 1000000} MB': '{where}：附件 {name} 大于 {MAX_ATTACHMENT_BYTES // 1000000} MB',
    '{where}: the attachment {name} is not valid base64': '{where}：附件 {name} 不是有效的 base64',
    '{where}: the attachment {name} is not a PDF file': '{where}：附件 {name} 不是 PDF 文件',
    '{where}: the attachment {name} is not UTF-8 text': '{where}：附件 {name} 不是 UTF-8 文本',
    '{where}: the attachment {name}': '{where}：附件 {name}',
    'not JSON': '不是 JSON',
    'first byte': '首字节',
    'first token': '首个 token',
    '{len(gaps)} silence(s) longer than {threshold} s (red)': '{len(gaps)} 段超过 {threshold} s 的静默（红色）',
    'no silence longer than {threshold} s': '没有超过 {threshold} s 的静默',
    'Upload the image as a file (PNG, JPEG, WebP or GIF).': '请以文件形式上传图片（PNG、JPEG、WebP 或 GIF）。',
    'resumed task': '继续查看的任务',
    "model: {body.get('model')} is not a video model this tab knows": "model：{body.get('model')} 不是本标签页认识的视频模型",
    'this command sends images: choose the mode in the Video tab and attach them there': '这条命令会发送图片：请在“视频”标签页中选择模式，并在那里附加图片',
    "this command sends images ({', '.join(images)}): choose the mode in the Video tab and attach them there": "这条命令会发送图片（{', '.join(images)}）：请在“视频”标签页中选择模式，并在那里附加图片",
    "the Video tab has no control for {', '.join(unknown)}; send this call with curl, or leave those fields out": "“视频”标签页没有 {', '.join(unknown)} 的控件；请用 curl 发送这个调用，或去掉这些字段",
    'This app offers no API: its events are for its own page. Call the gateway itself (the inspector shows the curl and Python for every call).': '本应用不提供 API：它的事件只供它自己的页面使用。请直接调用网关（检查器会为每次调用给出 curl 和 Python 代码）。',
    'The request could not be processed.': '无法处理这个请求。',
    'The request is too large.': '请求太大了。',
}

NOT_SHOWN: frozenset[str] = frozenset({
    'One model family through all four formats',  # Compare preset name: the radio value looked up in PRESETS and set by examples
    'Three models through chat completions',  # Compare preset name: radio value
    'user message',  # SHARED key (system prompt, the other, is translated in i18n_client_report.py for the Report check)
    'time to first token (ms)',  # ROW_KEYS / JSON export key
    'tokens per second',  # ROW_KEYS key, compared in metrics_table
    'total time (ms)',  # ROW_KEYS key
    'input tokens',  # ROW_KEYS key
    'output tokens',  # ROW_KEYS key
    'reasoning tokens',  # ROW_KEYS key
    'cached tokens',  # ROW_KEYS key
    '🔧 Result of',  # TOOL_RESULT_MARK: compared with startswith
    'List format (/v1/embeddings)',  # LIST_FORMAT value
    'no such run',  # batch_runs: another visitor's run is refused as a missing one; the handlers show their own words
    '{kind} is not a kind whose files are guarded',  # owned_files: a programming error, never reaches a page
    '; Secure; SameSite=None; Partitioned',  # owned_files: cookie attributes
    'Native format (:embedContent)',  # NATIVE_FORMAT value
    'One call per text (:embedContent)',  # NATIVE_CALLS key
    'float vs base64',  # LESSONS key
    'RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT',  # LESSONS key
    'Full vs reduced dimensions',  # LESSONS key
    'Authorization: Bearer',  # AUTH_CHOICES key / form value
    '(checking the loaded values)',  # stand-in text for a check, never sent nor shown
    '{form_class.__name__} has {len(names)} fields but {len(components)} components were given',  # programming error while building the UI
    '(a prompt is typed before Generate)',  # PROMPT_STAND_IN for the check of loaded values
    '(not set)',  # NOT_SET dropdown value compared by _set
    'x-svc-api-key header',  # AUTH_CHOICES key
    'key= in the URL',  # AUTH_CHOICES key
    'model default',  # THINKING_CHOICES value
    'level LOW',  # THINKING_CHOICES value (split to LOW)
    'level HIGH',  # THINKING_CHOICES value
    'spec (nested under function)',  # TOOL_FORMATS value, compared
    'flat (as the openai SDK sends)',  # TOOL_FORMATS value, compared
    'latest poll',  # CALLS key (job.calls['latest poll'], catalogue key vboard.call.latest poll)
})

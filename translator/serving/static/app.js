"use strict";
const $ = (id) => document.getElementById(id);

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  });
  let data;
  try { data = await response.json(); } catch (e) { data = {error: response.statusText}; }
  if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
  return data;
}

// The terms box as the request's "glossary" object: one `english = spanish` (or English<TAB>Spanish) a
// line, blank lines and `#` comments skipped. The server checks the rest (empty sides, limits).
function glossary() {
  const terms = {};
  $("glossary").value.split("\n").forEach((line, index) => {
    if (!line.trim() || line.trim().startsWith("#")) return;
    const separator = line.includes("\t") ? "\t" : "=";
    const at = line.indexOf(separator);
    if (at < 0) throw new Error(`glossary line ${index + 1}: write english = spanish`);
    const english = line.slice(0, at).trim(), spanish = line.slice(at + 1).trim();
    if (english in terms && terms[english] !== spanish) {
      throw new Error(`glossary line ${index + 1}: "${english}" is given two translations`);
    }
    terms[english] = spanish;
  });
  return terms;
}

async function translate() {
  const text = $("source").value;
  const button = $("translate");
  button.disabled = true;
  $("result").classList.remove("error");
  $("result").dataset.state = "busy";
  $("result").textContent = "Translating…";
  $("meta").textContent = "";
  try {
    const data = await post("/translate", {text: text, beam: Number($("beam").value), glossary: glossary()});
    $("result").textContent = data.translations[0];
    $("result").dataset.state = "done";
    $("meta").textContent = data.model + " · " + data.ms.toFixed(0) + " ms";
    if ($("show-attention").checked) {
      showAttention(text);
    } else {
      clearAttention();
    }
  } catch (error) {
    $("result").classList.add("error");
    $("result").dataset.state = "error";
    $("result").textContent = "Error: " + error.message;
  } finally {
    button.disabled = false;
  }
}

// Attention requests can overlap (the box ticked, then a new translation): only the newest may draw.
let attentionRequests = 0;

function clearAttention() {
  attentionRequests++;
  $("attention").replaceChildren();
}

// The translation stands even if the heatmap fails: the failure is reported where the heatmap would be.
async function showAttention(text) {
  if (!text.trim()) { clearAttention(); return; }
  const request = ++attentionRequests;
  let data;
  try {
    data = await post("/attention", {text: text});
  } catch (error) {
    if (request === attentionRequests) $("attention").textContent = "Attention: " + error.message;
    return;
  }
  if (request !== attentionRequests) return;
  const caption = document.createElement("p");
  caption.className = "hint";
  caption.textContent = "Cross-attention of \u201c" + data.sentence + "\u201d: each Spanish token (row) "
                        + "and the English tokens (columns) it looked at; darker is more.";
  $("attention").replaceChildren(caption, heatmap(data));
}

// Inline SVG: Spanish (target) tokens down the left, English (source) tokens across the top,
// darker cells = more attention.
function heatmap(data) {
  const NS = "http://www.w3.org/2000/svg";
  const cell = 30, left = 110, top = 90;
  const svg = document.createElementNS(NS, "svg");
  const width = left + cell * data.source.length + 10, height = top + cell * data.target.length + 10;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Cross-attention of '" + data.sentence + "': rows are Spanish tokens, "
                   + "columns English tokens, darker means more attention");
  const add = (name, attributes, text) => {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  const peak = Math.max(1e-6, ...data.weights.flat());
  data.source.forEach((token, j) => {
    const x = left + j * cell + cell / 2, y = top - 6;
    add("text", {x: x, y: y, transform: `rotate(-50 ${x} ${y})`}, token);
  });
  data.target.forEach((token, i) => {
    add("text", {x: left - 6, y: top + i * cell + cell / 2 + 4, "text-anchor": "end"}, token);
    data.weights[i].forEach((weight, j) => {
      const rect = add("rect", {x: left + j * cell, y: top + i * cell, width: cell - 1, height: cell - 1,
                                fill: "#1f5fbf", "fill-opacity": (0.04 + 0.96 * weight / peak).toFixed(3)});
      const title = document.createElementNS(NS, "title");
      title.textContent = `${token} ← ${data.source[j]}: ${weight.toFixed(3)}`;
      rect.appendChild(title);
    });
  });
  return svg;
}

$("form").addEventListener("submit", (event) => { event.preventDefault(); translate(); });
$("source").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); translate(); }
});
$("show-attention").addEventListener("change", () => {
  if ($("show-attention").checked && $("result").dataset.state === "done") {
    showAttention($("source").value);
  } else if (!$("show-attention").checked) {
    clearAttention();
  }
});

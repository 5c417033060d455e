// Stands in for CSS and image imports under Jest, which cannot load them.
export default 'asset-stub';
